// The core's words on the page in the page's language. The core writes English sentences for the
// CLI (ConfigError messages built from numbers, the settings table, preset descriptions); the CLI
// keeps them. In Chinese the page translates the common clauses by pattern (a message is split
// at its "; " clauses, each clause matched against the table below) and shows any clause it has
// no pattern for as the English original behind a lead-in that says so (marked lang="en", which
// the untranslated-strings test treats as deliberate).
import { html, type TemplateResult } from 'lit';
import { LAYOUT_SETTINGS, type LayoutSetting } from '../../core/settings.ts';
import { M } from './index.ts';
import { lang } from './lang.ts';

type Clause = [RegExp, (m: RegExpExecArray) => string];

const flagLabel = (flag: string) => {
  const s = LAYOUT_SETTINGS.find((x) => x.flag === flag || x.param === flag);
  return s ? settingLabel(s) : flag;
};
const orList = (text: string) => text.replace(/ or /g, ' 或 ');

/** A "why it is too big" clause of the page's view budget (src/ui/view-budget.ts). */
const tooBig: Clause[] = [
  [/^(\S+) ranks are more rows than the page draws \(at most (\S+)\)$/, (m) => `${m[1]} 个 rank 超过了本页能绘制的行数（最多 ${m[2]}）`],
  [
    /^(\S+) ranks? × (\S+) samples per rank per step(?: × (\S+) steps per gather)? = (\S+) tiles in one gather, more than the (\S+) tiles the page draws$/,
    (m) =>
      `${m[1]} 个 rank × 每 rank 每 step ${m[2]} 个样本${m[3] ? ` × 每次 gather ${m[3]} 个 step` : ''} = 一次 gather ${m[4]} 个方块，` +
      `超过了本页能绘制的 ${m[5]} 个方块`,
  ],
  [
    /^(\S+) gathers × (\S+) = (\S+) samples in the whole layout, more than the (\S+) the page builds$/,
    (m) => `${m[1]} 次 gather × ${m[2]} = 整个布局 ${m[3]} 个样本，超过了本页能构建的 ${m[4]} 个`,
  ],
];

/** zh for the common clauses of the core's ConfigError messages (and the page's own view-budget message). */
export const ZH_CLAUSES: Clause[] = [
  [
    /^Too big for this page: (.*)\. The overview shows it as a heatmap; for tiles, pick smaller numbers\.$/,
    (m) => {
      const why = tooBig.find(([re]) => re.test(m[1]!));
      const words = why ? why[1](why[0].exec(m[1]!)!) : null;
      return words === null ? '' : `对本页来说太大了：${words}。概览以热图显示它；要看方块，请选小一些的数值。`;
    },
  ],
  [
    /^k=(\d+) must divide ranks×batch=(\d+) \(each step must hold whole groups\)$/,
    (m) => `k=${m[1]} 必须整除 ranks×batch=${m[2]}（每个 step 必须持有完整的组）`,
  ],
  [/^k=(\d+) must divide ranks×batch=(\d+)$/, (m) => `k=${m[1]} 必须整除 ranks×batch=${m[2]}`],
  [
    /^k=(\d+) must divide batch=(\d+) \(each rank takes batch\/k prompts per step and repeats each k times\)$/,
    (m) => `k=${m[1]} 必须整除 batch=${m[2]}（每个 rank 每个 step 取 batch/k 个 prompt，并将每个重复 k 次）`,
  ],
  [
    /^k=(\d+) must be a multiple of ranks=(\d+) \(each rank holds k\/ranks copies of every prompt\)$/,
    (m) => `k=${m[1]} 必须是 ranks=${m[2]} 的倍数（每个 rank 持有每个 prompt 的 k/ranks 个副本）`,
  ],
  [
    /^k \(num_generations\) = (\d+) must be at least 2: TRL's GRPO needs 2 or more completions per prompt$/,
    (m) => `k (num_generations) = ${m[1]} 至少应为 2：TRL 的 GRPO 每个 prompt 需要 2 个或更多 completion`,
  ],
  [/^valid k here: (.*)$/, (m) => `此处可用的 k：${m[1]}`],
  [/^valid ranks here: (.*)$/, (m) => `此处可用的 ranks：${m[1]}`],
  [/^(batch=\d+(?: \(→\d+\))?(?: or batch=\d+(?: \(→\d+\))?)*)$/, (m) => orList(m[1]!)],
  [/^use dataset-size ≥ (\d+)$/, (m) => `改用 dataset-size ≥ ${m[1]}`],
  [/^use --sampler (\S+)$/, (m) => `改用 --sampler ${m[1]}`],
  [/^no single setting fixes it, change several$/, () => '没有哪个单独的设置能修正它，需要同时改几个'],
  [
    /^([a-z-]+) must be a whole number ≥ (\S+), got (.+)$/,
    (m) => `${flagLabel(m[1]!)} 必须是 ≥ ${m[2]} 的整数，得到的是${m[3] === 'NaN' ? '空值或非数字' : ` ${m[3]}`}`,
  ],
  [/^([a-z-]+)=(\S+) is above the sandbox's limit of (\S+)$/, (m) => `${flagLabel(m[1]!)}=${m[2]} 超过了本沙盒的上限 ${m[3]}`],
  [
    /^an epoch of batches-per-epoch=(\d+) needs (\d+) distinct prompts but dataset-size=(\d+)$/,
    (m) => `batches-per-epoch=${m[1]} 的一个 epoch 需要 ${m[2]} 个不同的 prompt，但 dataset-size=${m[3]}`,
  ],
  [
    new RegExp(
      '^a generation batch needs (\\d+) distinct prompts \\(generation batch (\\d+) / k=(\\d+)\\) but dataset-size=(\\d+): ' +
        'RepeatSampler would drop the only, incomplete chunk$',
    ),
    (m) =>
      `一个生成 batch 需要 ${m[1]} 个不同的 prompt（生成 batch ${m[2]} / k=${m[3]}），但 dataset-size=${m[4]}：RepeatSampler 会丢掉唯一且不完整的那一块`,
  ],
  // The rarer clauses a user reaches from the explorer's settings (test/ui/i18n-catalogue.test.ts sweeps them).
  [
    /^one step holds (ranks×batch(?:×steps-per-generation)?)=(\d+) samples, above the sandbox's limit of (\d+)$/,
    (m) => `一个 step 含 ${m[1]}=${m[2]} 个样本，超过了本沙盒的上限 ${m[3]}`,
  ],
  [/^lower --ranks or --batch$/, () => '请调低 --ranks 或 --batch'],
  [/^this layout has (\d+) samples, above the sandbox's limit of (\d+)$/, (m) => `这个布局有 ${m[1]} 个样本，超过了本沙盒的上限 ${m[2]}`],
  [/^try ([a-z-]+=\d+)$/, (m) => `试试 ${m[1]}`],
  [/^no single setting fixes it, lower several$/, () => '没有哪个单独的设置能修正它，需要同时调低几个'],
  [
    /^each batch needs m=ranks×batch\/k=(\d+) distinct prompts but dataset-size=(\d+)$/,
    (m) => `每个 batch 需要 m=ranks×batch/k=${m[1]} 个不同的 prompt，但 dataset-size=${m[2]}`,
  ],
  [
    new RegExp(
      '^(?:use dataset-size ≥ (\\d+) )?\\(flow_grpo does not check: (randperm\\(\\d+\\)\\[:\\d+\\]) returns only (\\d+) prompts and ' +
        "the (last ranks get short or empty batches|epoch's last batches come out short or empty)\\)$",
    ),
    (m) =>
      `${m[1] ? `改用 dataset-size ≥ ${m[1]}` : ''}（flow_grpo 不做检查：${m[2]} 只返回 ${m[3]} 个 prompt，` +
      `${m[4]!.startsWith('last ranks') ? '最后几个 rank 的 batch 不足或为空' : '该 epoch 最后几个 batch 不足或为空'}）`,
  ],
  [
    new RegExp(
      '^an epoch needs m=(\\d+) distinct prompts \\(m·k a multiple of ranks×batch=(\\d+)\\) but dataset-size=(\\d+)' +
        '(?: \\(flow_grpo does not check: (randperm\\(\\d+\\)\\[:\\d+\\]) returns only (\\d+) prompts ' +
        "and the epoch's last batches come out short or empty\\))?$",
    ),
    (m) =>
      `一个 epoch 需要 m=${m[1]} 个不同的 prompt（m·k 须是 ranks×batch=${m[2]} 的倍数），但 dataset-size=${m[3]}` +
      (m[4] ? `（flow_grpo 不做检查：${m[4]} 只返回 ${m[5]} 个 prompt，该 epoch 最后几个 batch 不足或为空）` : ''),
  ],
  [
    /^seed must be a whole number within ±\(2\^53−1\), got (.+)$/,
    (m) => `${flagLabel('seed')} 必须是 ±(2^53−1) 以内的整数，得到的是${m[1] === 'NaN' ? '空值或非数字' : ` ${m[1]}`}`,
  ],
  [/^PyTorch uses only its low 32 bits$/, () => 'PyTorch 只用它的低 32 位'],
  [
    /^k=(\d+) \(num_generations\) must divide the generation batch (ranks×batch×steps-per-generation)=(\S+)$/,
    (m) => `k=${m[1]} (num_generations) 必须整除生成 batch ${m[2]}=${m[3]}`,
  ],
  [
    /^this layout needs (\d+) generator draws \(a randperm of dataset-size=(\d+) per reseed\), above the limit of (\d+)$/,
    (m) => `这个布局需要 ${m[1]} 次生成器抽取（每次重设种子做一次 dataset-size=${m[2]} 的随机排列），超过了上限 ${m[3]}`,
  ],
  [
    /^dataset-size=(\d+) gives each of ranks=(\d+) only (\d+) prompt\(s\), fewer than one step's batch\/k=(\d+)$/,
    (m) => `dataset-size=${m[1]} 只给 ranks=${m[2]} 中的每个 rank ${m[3]} 个 prompt，少于一个 step 的 batch/k=${m[4]}`,
  ],
  [
    /^batches-per-epoch=(\d+) is more than an epoch holds: each of ranks=(\d+) gets (\d+) prompt\(s\) per epoch, (\d+) full batch\(es\) of batch\/k=(\d+)$/,
    (m) =>
      `batches-per-epoch=${m[1]} 超过了一个 epoch 能容纳的数量：ranks=${m[2]} 中的每个 rank 每个 epoch 得到 ${m[3]} 个 prompt，` +
      `即 ${m[4]} 个每个 batch/k=${m[5]} 的完整 batch`,
  ],
  [
    /^use batches-per-epoch ≤ (\d+)(?: or dataset-size ≥ (\d+))?$/,
    (m) => `改用 batches-per-epoch ≤ ${m[1]}${m[2] ? ` 或 dataset-size ≥ ${m[2]}` : ''}`,
  ],
  [
    /^batch=(\d+) must be train_batch_size prompts × k=(\d+) \(DanceGRPO repeat_interleaves each prompt num_generations times\)$/,
    (m) => `batch=${m[1]} 必须是 train_batch_size 个 prompt × k=${m[2]}（DanceGRPO 把每个 prompt 重复 num_generations 次）`,
  ],
  [
    new RegExp(
      '^dataset-size=(\\d+) gives each of ranks=(\\d+) (\\d+) prompt\\(s\\), fewer than train_batch_size=(\\d+): ' +
        'the drop_last DataLoader is empty and DanceGRPO\'s "while True: for batch in loader" spins forever without a word$',
    ),
    (m) =>
      `dataset-size=${m[1]} 只给 ranks=${m[2]} 中的每个 rank ${m[3]} 个 prompt，少于 train_batch_size=${m[4]}：` +
      'drop_last 的 DataLoader 为空，DanceGRPO 的 while-True 循环会一声不响地永远空转',
  ],
  [
    /^ranks×batch=(\d+)×(\d+)=(\d+) samples per step must be data\.train_batch_size prompts × rollout\.n=(\d+) \(verl repeats every prompt n times\)$/,
    (m) =>
      `每个 step 的 ranks×batch=${m[1]}×${m[2]}=${m[3]} 个样本必须是 data.train_batch_size 个 prompt × rollout.n=${m[4]}（verl 把每个 prompt 复制 n 份）`,
  ],
  [
    /^dataset-size=(\d+) is smaller than data\.train_batch_size=(\d+): the drop_last dataloader is empty$/,
    (m) => `dataset-size=${m[1]} 小于 data.train_batch_size=${m[2]}：drop_last 的数据加载器为空`,
  ],
  // The schedule view's settings (src/core/schedule/workload.ts).
  [
    /^batch × k = (\d+) configurations is more than the simulator's (\d+)$/,
    (m) => `batch × k = ${m[1]} 个配置，超过了模拟器的上限 ${m[2]}`,
  ],
  [/^use a smaller batch or k$/, () => '请调小 batch 或 k'],
  [
    /^alpha must be in \[0, 1\] \(0: batching saves nothing, 1: a batch costs one\), got (.+)$/,
    (m) => `α 必须在 [0, 1] 之间（0：合批毫无节省，1：一批只花一个的时间），得到的是${m[1] === 'NaN' ? '空值或非数字' : ` ${m[1]}`}`,
  ],
  [
    /^gather-cost must be a non-negative number, got (.+)$/,
    (m) => `gather-cost 必须是非负数，得到的是${m[1] === 'NaN' ? '空值或非数字' : ` ${m[1]}`}`,
  ],
  [/^([a-z-]+=\d+)$/, (m) => m[1]!],
];

/** A framework's own error text ("TRL 1.13.0 raises: ValueError: …"): the lead-in translated, the framework's words kept as code. */
const RAISES = /^(.+?) raises: (.*)$/;

export type Piece = string | { code: string } | { original: string };

/** A core message as pieces in the current language (English: the message itself, unchanged). */
export function corePieces(message: string): Piece[] {
  if (lang() === 'en') return [message];
  const clauses = message.split(/; (?![^(]*\))/);
  const out: Piece[] = [];
  const untranslated: string[] = [];
  clauses.forEach((clause, i) => {
    const sep = i === 0 ? '' : '；';
    const raises = RAISES.exec(clause);
    if (raises) {
      const before = /^(\S+) \((\S+) before commit (\w+)\)$/.exec(raises[1]!);
      out.push(sep, ...(before ? [`${before[1]}（提交 ${before[3]} 之前的 ${before[2]}）`] : [{ code: raises[1]! }]), ' 报错：', {
        code: raises[2]!,
      });
      return;
    }
    // "or …": the core's alternative fixes.
    const or = /^or (.*)$/.exec(clause);
    const body = or ? or[1]! : clause;
    for (const [re, zh] of ZH_CLAUSES) {
      const m = re.exec(body);
      const words = m ? zh(m) : '';
      if (words !== '') {
        out.push(sep + (or ? '或' : '') + words);
        return;
      }
    }
    untranslated.push(clause);
  });
  if (untranslated.length > 0) out.push({ original: untranslated.join('; ') });
  else out.push('。');
  return out;
}

/** The pieces as page content: code in <code>, untranslated English behind the lead-in and marked lang="en". */
export function renderPieces(pieces: Piece[], words: (s: string) => (string | TemplateResult)[] = (s) => [s]): (string | TemplateResult)[] {
  return pieces.flatMap((p) =>
    typeof p === 'string'
      ? words(p)
      : 'code' in p
        ? [html`<code>${p.code}</code>`]
        : [html` <span class="i18n-original">${M().lang.original}<span lang="en">${words(p.original)}</span></span>`],
  );
}

/** `lead(message)` in the page's language, the core's message at its end by the clause table (English: exactly `lead(message)`). */
export function withCoreMessage(lead: (m: string) => string, message: string): (string | TemplateResult)[] {
  return lang() === 'en' ? [lead(message)] : [lead(''), ...renderPieces(corePieces(message))];
}

/** Core text with no clause table (sampler notes, schedule captions): itself in English, the wrapped original otherwise. */
export function coreOriginal(text: string, words: (s: string) => (string | TemplateResult)[] = (s) => [s]): (string | TemplateResult)[] {
  return lang() === 'en' ? words(text) : renderPieces([{ original: text }], words);
}

/** A setting's label in the page's language (the core's table is the English one). */
export function settingLabel(s: LayoutSetting): string {
  return M().core.settings[s.param]?.label ?? s.label;
}

/** A setting's hint in the page's language. */
export function settingHint(s: LayoutSetting): string {
  return M().core.settings[s.param]?.hint ?? s.hint;
}

/** A suggested fix ("k = 2, batch = 4") in the page's language: English keeps the core's flag names, Chinese says the labels. */
export function suggestionWords(suggestion: Record<string, unknown>, english: (s: Record<string, unknown>) => string): string {
  if (lang() === 'en') return english(suggestion);
  return Object.entries(suggestion)
    .map(([key, v]) => {
      const s = LAYOUT_SETTINGS.find((x) => x.field === key);
      return `${s ? settingLabel(s) : key} = ${String(v)}`;
    })
    .join('，');
}

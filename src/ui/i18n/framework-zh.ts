// <grpo-framework> 的中文（zh-CN.ts 的 `framework` 部分；与 framework-en.ts 同一形状）。
// 框架自己的键名、标题、说明、警告和报错不在这里：视图按原文显示它们。
import type { BudgetRule } from '../../core/frameworks/budget.ts';
import type { frameworkEn } from './framework-en.ts';

const list = (items: readonly string[]) => items.join('、');

export const frameworkZh: typeof frameworkEn = {
  title: '按框架自己的配置文件读取',
  framework: '框架',
  pinned: (repo: string, commit: string, date: string) => `依据 ${repo} @ ${commit}（${date}）的代码建模`,
  presets: '它随附的示例配置：',
  noPresets: '它没有随附可供本工具复述的示例配置。',
  defaults: '随附默认值',
  keys: (n: number) => `框架的键（${n} 个），与它的配置文件中的名字相同`,
  shippedDefault: (value: string) => `默认 ${value}`,
  fromConfig: '来自配置',
  fromField: '在此设置',
  sandboxOnly: '仅本工具',
  unset: '未设置',
  paste: '粘贴你自己的配置',
  pasteHint: (format: string) => `使用框架自己的格式（${format}）；上面的字段会覆盖其中的值`,
  formats: {
    yaml: 'YAML',
    'yaml-defaults': 'YAML（此处不读取它继承的父文件）',
    toml: 'TOML',
    argv: '启动命令行',
    kwargs: 'JSON 或 YAML 关键字参数',
  },
  read: '读取',
  clear: '清除',
  readKeys: (source: string, keys: readonly string[]) =>
    `${source}：读取了 ${keys.length} 个键${keys.length ? `：${keys.join(', ')}` : ''}。`,
  ignoredKeys: (keys: readonly string[]) => `忽略了本工具不建模的 ${keys.length} 个键：${keys.join(', ')}。`,
  pastedSource: '粘贴的配置',
  parents: (files: readonly string[]) => `它继承的父文件 ${list(files)} 页面无法打开：只读取粘贴的键，其余保持框架随附的默认值。`,
  layoutHeading: '每个 prompt 的副本去了哪里',
  layoutLegend:
    '每行一个数据并行 rank，每列一个训练 step；每个方块是一个样本，标着它的 prompt id。点按（或悬停）一个方块，它的 prompt 的所有副本都会亮起。',
  steps: (from: number, to: number, total: number) => `第 ${from}–${to} 个 step，共 ${total} 个`,
  earlier: '◀ 更早的 step',
  later: '更晚的 step ▶',
  stepLabel: (index: number, epoch: number, step: number) => `step ${index}（epoch ${epoch} 的第 ${step} 步）`,
  rank: (r: number) => `rank ${r}`,
  more: (n: number) => `另有 ${n} 个`,
  moreRanks: (n: number) => `另有 ${n} 个 rank 未画出`,
  tile: (prompt: number, rank: number, slot: number) => `prompt ${prompt}：rank ${rank}，其 batch 中的第 ${slot} 个样本`,
  pickHint: '点按或悬停一个方块，查看它的 prompt 的副本在哪里。',
  copies: (prompt: number, at: readonly { step: number; total: number; ranks: readonly { rank: number; copies: number }[] }[]) =>
    at.length === 0
      ? `P${prompt} 在所示的 step 中没有副本。`
      : `${at
          .map(
            (a) =>
              `P${prompt} 在 step ${a.step} 的 ${a.total} 个副本位于 rank ` +
              list(a.ranks.map((r) => (a.ranks.length === 1 ? `${r.rank}` : `${r.rank}（${r.copies} 个）`))),
          )
          .join('；')}。`,
  clearPick: '取消',
  pickPrompt: '或输入一个 prompt id：',
  packingHeading: (step: number) => `打包：step ${step} 的 micro-batch`,
  packingLegend:
    '每列一个 rank，每条一个 micro-batch；每段是一个样本，长度等于它的词元数（prompt + completion）。虚线是预算；斜线条纹是某个 rank 没有样本却要运行的 micro-batch，因为每个 rank 都要运行与最忙的 rank 一样多的次数。',
  switchesLabel: '打包开关：',
  on: '开',
  off: '关',
  budget: (tokens: number, from: string, rule: BudgetRule) =>
    rule === 'count'
      ? `预算：${tokens} 个词元（${from}）；它决定一个 rank 运行多少个 micro-batch，再由 Karmarkar–Karp 平衡，所以某个 micro-batch 可能越过这条线。`
      : `预算：每个 micro-batch ${tokens} 个词元（${from}）${rule === 'soft' ? '，是软上限：一个很长的样本可以越过它' : ''}。`,
  budgetLine: (tokens: number) => `预算：${tokens} 个词元`,
  noBudget: '这些设置下没有词元预算：micro-batch 按样本数切分。',
  microBatches: (n: number) => `${n} 个 micro-batch`,
  padding: (n: number) => `另加 ${n} 个填充`,
  paddingStrip: '填充：没有样本',
  micro: (m: number) => `mb ${m}`,
  bar: (prompt: number | null, sample: number, tokens: number, micro: number, rank: number) =>
    `${prompt === null ? '' : `prompt ${prompt}，`}样本 ${sample}：${tokens} 个词元，rank ${rank} 的第 ${micro} 个 micro-batch`,
  moreMicro: (n: number) => `另有 ${n} 个 micro-batch`,
  moreRanksPacked: (n: number) => `另有 ${n} 个 rank 未画出`,
  synced: (most: number, padded: readonly number[]) =>
    `每个 rank 都运行 ${most} 个 micro-batch（数据并行的最大值）` +
    (padded.length ? `；rank ${list(padded.map(String))} 在填充上执行 step。` : '；没有 rank 在填充上执行 step。'),
  packerOff: '这些设置下框架不打包：每个 rank 按上图的顺序训练它的样本。',
  noLengths: '这个 step 不带词元数（它的分发不读取长度），所以这里没有可打包的内容。',
  packingAbsent: '这个框架没有可显示的词元预算或打包：',
  counts: '由各键推出：用框架自己的说法计数',
  warnings: '框架打印的警告（原文）',
  notes: '说明',
  error: (m: string) => `无法按这些设置排布：${m}`,
};

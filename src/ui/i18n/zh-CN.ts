// 简体中文目录：与 en.ts 同一形状（类型 Catalogue 保证每个键都在）。
// Practitioners' technical terms stay in English inside the Chinese text (GRPO, rank, all-gather,
// batch, k, prompt id, uid, std, KL, WebGPU …), as they are written in Chinese papers and code reviews.
import type { RegroupMethod } from '../../core/layout/types.ts';
import type { Catalogue, Where } from './en.ts';
import type { GroupFate } from '../async/async-trace.ts';
import type { DropReason } from '../../core/async/types.ts';
import { captionZh, conclusionZh, headlineZh } from './schedule-zh.ts';
import type { SeriesLabel } from '../../train/metrics.ts';
import { frameworkZh } from './framework-zh.ts';

/** Why a group was dropped, in a tooltip (the list under the figure counts them: async.why). */
const DROP_REASONS: Record<DropReason, string> = {
  'stale-at-consumption': '训练器取用时已过于陈旧',
  evicted: '在权重更新时被逐出缓冲区',
  'aborted-in-flight': '在权重更新时仍在生成，被中止',
  'outside-step-window': '落在训练器取数的训练步范围之外',
};

const zaiWhere = (where: Where) => (where === 'link' ? '链接中' : '属性中');

/** "4 个大小为 8 的组" or "2 个大小为 8 的组和 4 个大小为 4 的组" (sizes as groupSizes gives them). */
const groupsZh = (sizes: [number, number][]) => sizes.map(([size, n]) => `${n} 个大小为 ${size} 的组`).join('和') || '没有组';

const regroupText: Record<RegroupMethod, string> = {
  'prompt-id': '按 prompt id 分组，与 flow_grpo 的 PerPromptStatTracker 相同（它按 prompt 字符串分组）',
  view: '用 rewards.view(-1, k) 分组，与 TRL 相同：汇集顺序中每 k 个相邻样本组成一行，不管其中是哪些 prompt',
  uid: '按 uid 分组，与 verl 相同：同一 prompt 的一次抽取的各副本共享一个 uid',
  local: '在每个 rank 上分组，每组 k 个相邻样本，与 DanceGRPO 相同（rank 持有完整的组时无需 gather）',
};

const tooBig = (why: string) => `对本页来说太大了：${why}。概览以热图显示它；要看方块，请选小一些的数值。`;

/** Every training chart's legend labels (src/train/metrics.ts SERIES_LABELS): a label without its Chinese does not compile. */
const CHART_SERIES_ZH: Record<SeriesLabel, string> = {
  step: 'step',
  mean: '均值',
  std: '标准差',
  '% of optimum': '占最优 %',
  'zero-std': '零方差组',
  loss: 'loss',
  KL: 'KL',
  clip: 'clip',
  'grad norm': '梯度范数',
  'advantage std': 'advantage std',
  'off-policy': 'off-policy 比例',
  '|ratio − 1|': '|比率 − 1|',
  tier: '图像档位',
  insertion: '插入位置',
  'top-K': 'top-K',
  'active blocks': '激活块数',
  'budget ms': '预算 ms',
  policy: '策略',
  optimum: '最优',
};

export const zhCN: Catalogue = {
  pageFacts: {
    'view.too-many-ranks': (p) => tooBig(`${p.ranks} 个 rank 超过了本页能绘制的行数（最多 ${p.most}）`),
    'view.too-many-tiles': (p) =>
      tooBig(
        `${p.ranks} 个 rank × 每 rank 每 step ${p.perRank} 个样本${p.stepsPerGather === null ? '' : ` × 每次 gather ${p.stepsPerGather} 个 step`}` +
          ` = 一次 gather ${p.tiles} 个方块，超过了本页能绘制的 ${p.most} 个方块`,
      ),
    'view.too-many-samples': (p) =>
      tooBig(`${p.gathers} 次 gather × ${p.perGather} = 整个布局 ${p.samples} 个样本，超过了本页能构建的 ${p.most} 个`),
  },
  lang: {
    label: '语言',
    switchTo: '用英文显示本页',
    unknown: (raw: string) => `链接中的“lang=${raw}”不是本页支持的语言（en、zh-CN）；改用英文显示。`,
    original: '英文原文：',
    pageTitle: 'grpo-sandbox · k 个副本去了哪里',
    toExplorer: '← 返回探索页：k 个副本去了哪里',
    scrollHint: '↔ 比屏幕宽：左右滑动查看其余部分',
    viewTitles: {
      train: '训练',
      schedule: '执行调度',
      dynamic: '动态采样',
      steps: '优化步',
      async: '异步 GRPO',
      advantages: 'advantage 对比',
      framework: '各框架',
    },
  },
  explorer: {
    subtitle: '· 一个 prompt 的 k 个副本去了哪里，又如何重新相聚',
    projector: '投影模式',
    projectorTitle: '方块放大一倍，适合投影或教室后排观看（链接中的 zoom=2）',
    copyLink: '复制链接',
    copyLinkTitle: '复制指向当前视图的链接',
    linkCopied: '链接已复制',
    copyAddressBar: '请复制地址栏',
    commandLead: '在终端中得到同一布局：',
    copyCommand: '复制',
    copyCommandTitle: '复制打印此布局数据的命令',
    commandCopied: '已复制',
    copyCommandBelow: '请选中命令后复制',
    noticeTitle: '链接中有部分内容无法读取：',
    dismiss: '关闭',
    phaseOf: (i: number, n: number) => `第 ${i} 阶段（共 ${n} 个）`,
    gatherOf: (i: number, n: number) => ` · 第 ${i} 次 gather（共 ${n} 次）`,
    openFull: '在探索页中打开 ↗',
    toViews: '在本页训练控制器（rank 以 Web Worker 运行）→',
    tableSummary: '以表格显示所跟踪的 gather（rank × step）',
    tableRank: 'rank',
    tableStep: (s: number) => `step ${s}`,
    tableRankRow: (r: number) => `rank ${r}`,
    firstRanks: (shown: number, ranks: number) => `仅显示 ${ranks} 个 rank 中的前 ${shown} 个。`,
    stale: (label: string) => `显示的是上一个有效布局${label}。`,
    fixes: '修正：',
    regrouped: (label: string) => `重组方式：${label}`,
  },
  notices: {
    notOneOf: (where: Where, param: string, value: string, allowed: string, fallback: string) =>
      `${zaiWhere(where)}的“${param}=${value}”不在可选值 ${allowed} 之中；改用 ${fallback}。`,
    notPreset: (where: Where, name: string, presets: string) =>
      `${zaiWhere(where)}的“preset=${name}”不是预设（${presets}）；从默认设置开始。`,
    notNumber: (where: Where, param: string, raw: string, stays: string) =>
      `${zaiWhere(where)}的“${param}=${raw}”不是数字；${param} 保持为 ${stays}。`,
    speed: (where: Where, raw: string) => `${zaiWhere(where)}的“speed=${raw}”不是 0 到 8 之间的速度；按 1× 播放。`,
    zoom: (where: Where, raw: string, valid: string) => `${zaiWhere(where)}的“zoom=${raw}”不是可用的图片大小（${valid}）；按 1× 显示。`,
    prompt: (where: Where, raw: string) => `${zaiWhere(where)}的“prompt=${raw}”不是 prompt id（0、1、2……）；不高亮任何 prompt。`,
    gather: (where: Where, raw: string) => `${zaiWhere(where)}的“gather=${raw}”不是 gather 编号；跟踪第一次 gather。`,
  },
  phases: {
    sample: '采样',
    scatter: '分发到各 rank',
    accumulate: '各 rank 累积',
    gather: 'All-gather（按 rank 顺序）',
    regroup: '重组',
    advantages: '按组计算 advantage',
    slice: '切回各 rank',
  },
  story: {
    regroupText,
    advPromptId: 'flow_grpo：(r − 该 prompt 的均值) / (全部汇集 reward 的 std + 1e-4)，numpy std（ddof=0）',
    advViewNone: 'TRL 且 scale_rewards="none"（Dr. GRPO）：r − 该行均值，不做除法',
    advView: (group: boolean) => `TRL：(r − 该行均值) / (${group ? '该行的无偏 std' : '整个 batch 的无偏 std'} + 1e-4)`,
    advUid: 'verl：(r − 该 uid 的均值) / (无偏 std + 1e-6)；单独一个样本的均值记为 0、std 记为 1',
    advLocal: 'DanceGRPO：(r − 该 rank 上组的均值) / (无偏 std + 1e-8)，在每个 rank 上计算',
    sampleSame: (draws: number, k: number) => `，每个 step ${draws} 个 prompt × ${k} 个副本`,
    loaderIdeal:
      '训练循环按每次 set_epoch 的种子读取每个 batch：这是 seed-000 文档所假设的理想循环（flow_grpo 发布的脚本通过会预取的 ' +
      'DataLoader 和 accelerator.prepare 读取 sampler：数据加载设置可以展示这一点）。',
    loaderPair: (step: number, sameAs: number) => `step ${step} 拿到 step ${sameAs} 的 batch`,
    loaderText: (workers: number, prefetch: number, prepared: boolean) =>
      `DataLoader(num_workers=${workers}${workers > 0 ? `, prefetch_factor=${prefetch}` : ''})，` +
      (prepared ? '经过 accelerator.prepare' : '未经 accelerate 的 prepare'),
    loaderRepeats: (loader: string, ahead: number, pairs: string, big: number, k: number) =>
      `按 flow_grpo 发布的脚本运行（${loader}），有 ${ahead} 个索引 batch 在其 set_epoch 调用之前就被抽取：这里 ${pairs}，` +
      `所以 PerPromptStatTracker 中有 ${big} 个 prompt 组含 ${2 * k} 个或更多样本。seed-000 文档预期的是每个 step 都重新抽取。`,
    loaderShifted: (loader: string, ahead: number) =>
      `按 flow_grpo 发布的脚本运行（${loader}），每个 step 收到的是 set_epoch(t − ${ahead}) 所生成的 batch，` +
      `而不是 seed-000 文档预期的它自己的那个。`,
    sampleVaried: (draws: string, k: number) => `；各 step 分别持有 ${draws} 个 prompt × ${k} 个副本`,
    sampleAcross: (step: number, draws: number, across: number, groups: number) =>
      `；step ${step} 持有 ${draws} 个 prompt 的副本，而该 gather 的 ${groups} 个组中有 ${across} 个的副本分布在多个 step 中，所以一个 step 并不持有完整的组`,
    scatterK1: 'k = 1 时每个组只有一个样本。',
    scatterTogether: (k: number) =>
      `这里一个 rank 可以在一个 step 中收到一个组的全部 ${k} 个副本，所以这些副本在任何 gather 之前就在一起。`,
    scatterApartWhole: (k: number) =>
      `请看一个 prompt 的 ${k} 个副本落在 ${k} 个不同的 rank 上：没有哪个 rank 在一个 step 中收到同一组的两个副本。`,
    scatterApart: '请看一个 prompt 的各副本落在不同的 rank 上：没有哪个 rank 在一个 step 中收到同一组的两个副本。',
    scatterSpread: (k: number, most: number) =>
      `请看一个 prompt 的 ${k} 个副本分散到多个 rank（一个 rank 在一个 step 中最多 ${most} 个）：没有哪个 rank 收到完整的组。`,
    accK1: 'k = 1 时一个组就是一个样本，其均值就是该样本本身。',
    accAllWhole: '现在每个组都完整地位于某一个 rank 上，所以每个 rank 都可以独自计算其各组的均值。',
    accSomeWhole: (whole: number, groups: number) =>
      `${groups} 个组中有 ${whole} 个完整地位于一个 rank 上（该 rank 可以独自计算它们的均值）；其余的组分散在多个 rank 上。`,
    accSeveral: (most: number) =>
      `有些 rank 持有同一组的多个副本（最多 ${most} 个），但没有哪个 rank 持有完整的组，所以没有 rank 能独自计算组均值。`,
    accNone: '没有哪个 rank 持有同一组的两个副本，所以没有 rank 能独自计算组均值。',
    sample: (k: number, W: number, B: number, perStep: number, outcome: string, steps: number) =>
      `每个 step，sampler 抽取 prompt，并为每个 prompt 生成 k = ${k} 个副本：${W} 个 rank × ${B} 个槽位 = 每个 step ${perStep} 个样本` +
      outcome +
      `。这里显示的是分发之前的样子，副本并排放置（此 gather 含 ${steps} 个 step）。`,
    scatter: (B: number, outcome: string) => `样本被分发到各 rank：rank r 取该 step 顺序中的槽位 [r·${B}, (r+1)·${B})。${outcome}`,
    accumulate: (steps: number, B: number, perRank: number, outcome: string) =>
      `每个 rank 拼接它的 ${steps} 个 batch：${steps} × ${B} = 每个 rank ${perRank} 个样本。${outcome}`,
    accumulateOne: (scope: string, perRank: number, outcome: string) =>
      `此 gather 只覆盖一个 step（作用范围：${scope}），所以每个 rank 只持有本 step 的 ${perRank} 个样本。${outcome}`,
    gatherOne: (samples: number) =>
      `在单个 rank 上做 all-gather：汇集顺序就是该 rank 自己的 ${samples} 个样本，汇集下标 = 在该 rank 上的位置。`,
    gather: (samples: number, perRank: number) =>
      `All-gather：每个 rank 都收到按 rank 顺序拼接的 ${samples} 个样本——先是 rank 0 的 ${perRank} 个，然后是 rank 1 的，……` +
      `一个样本的汇集下标 = rank × ${perRank} + 它在该 rank 上的位置。`,
    regroup: (how: string, groups: number, prompts: number) => `重组：${how}；得到 ${groups} 个组，来自 ${prompts} 个不同的 prompt`,
    regroupMixed: (n: number) => `；其中 ${n} 个组混合了不同的 prompt（红色标出）——这些行的 advantage 是错误的`,
    regroupOffSize: (n: number, k: number) => `；${n} 个组的大小不等于 k = ${k}（已标出）`,
    rewardsRandom: '带种子的均匀噪声',
    rewardsModel: '一个玩具式通过/失败 reward 模型（每个 prompt 有一个通过率）',
    advantages: (source: string, how: string) => `reward 来自${source}；按组计算 advantage 的方式：${how}。`,
    tied: (n: number) => ` ${n} 个组打平（std 为 0）：advantage 为 0，没有学习信号。`,
    slice: (perRank: number) =>
      `切回：rank r 取 gathered[r·${perRank}, (r+1)·${perRank})——正是它自己产生的样本，现在带上了各自的 advantage（低于组均值为蓝色，高于为橙色）。`,
    scopeEpoch: 'epoch',
    scopeStep: 'step',
  },
  model: {
    methodName: {
      'prompt-id': 'flow_grpo 按 prompt id 的分组',
      view: 'TRL 的 view(-1, k)',
      uid: 'verl 按 uid 的分组',
      local: 'DanceGRPO 的本地分组',
    } as Record<RegroupMethod, string>,
    rowsMixed: (name: string, framework: string, mixed: number, rows: number) =>
      `在 ${framework} 的 gather 上，${name} 的 ${rows} 行中有 ${mixed} 行混合了不同的 prompt`,
    rowsKept: (name: string, framework: string, rows: number) =>
      `在 ${framework} 的 gather 上，${name} 的每一行都只含一个 prompt（共 ${rows} 行）`,
    rowsText: (rowsPart: string) => `${rowsPart}；两幅图的 advantage 在 advantage 阶段计算出来之后再比较。`,
    withError: (rowsPart: string, error: string) => `${rowsPart}。${error}`,
    noneToCompare: (rowsPart: string, name: string) => `${rowsPart}；${name} 在这里没有可供比较的 advantage。`,
    differ: (rowsPart: string, differing: number, total: number, name: string, max: string, wrong: boolean) =>
      `${rowsPart}；${total} 个 advantage 中有 ${differing} 个与${name}的不同（最大差值 ${max}）${wrong ? '，因此它们是错误的' : ''}。`,
    equal: (rowsPart: string, name: string) => `${rowsPart}；advantage 与${name}的相同。`,
    whatIf: (label: string, framework: string, does: string) =>
      `假如：这里在 ${framework} 的布局上按“${label}”重组；${framework} 本身${does}。`,
    noAdvantagesRows: (who: string, k: string, where: string, count: string) =>
      `此重组方式无法计算 advantage：${who}需要每行 k = ${k} 个样本，但${where} ${count} 个，不是 ${k} 的倍数。`,
    rowMakers: {
      'trl-view': { who: 'TRL 的 rewards.view(-1, k) ', where: '该 gather 持有' },
      'dance-local': { who: 'DanceGRPO 的本地分组', where: '一个 rank 持有' },
    },
    noSliceBack: (samples: string, ranks: string) => `无法切回 advantage：${samples} 个汇集样本不能平均分给 ${ranks} 个 rank。`,
    noAdvantages: (why: string) => `此重组方式无法计算 advantage：${why}`,
    gotNaN: '得到的是空值或非数字',
  },
  core: {
    settings: {
      sampler: { label: 'sampler', hint: '由哪个框架的采样方案来排布 prompt' },
      ranks: { label: 'rank 数（W）', hint: '数据并行的进程数（world_size）' },
      batch: { label: '每 rank batch（B）', hint: '每个 rank 每个 step 的样本（completion）数（TRL：per_device_train_batch_size）' },
      k: { label: '每个 prompt 的副本数（k）', hint: '组大小（flow_grpo：k，TRL：num_generations）' },
      batches: {
        label: '每 epoch 的 batch 数',
        hint:
          '每个 epoch 的 step 数（flow-grpo、group-distributed、contiguous：最多为一个 epoch 的完整 batch 数；' +
          'flow-grpo-lcm：必须是 k/gcd(k, ranks×batch) 的倍数，CLI 会拒绝其他值；trl 与 dance-grpo 自行推导，不接受指定）',
      },
      epochs: { label: 'epoch 数', hint: 'epoch 数（dance-grpo：遍历其 DataLoader 的次数，每次都沿用第 0 次的顺序）' },
      dataset: { label: '数据集大小', hint: '数据集中的 prompt 数（id 为 0 … D−1）' },
      seed: { label: '随机种子', hint: 'PyTorch 随机数生成器的种子（取低 32 位）' },
      spg: { label: '每次生成的 step 数', hint: 'TRL steps_per_generation；默认等于 --gradient-accumulation-steps，与 TRL 相同' },
      iters: { label: '迭代次数（μ）', hint: 'TRL num_iterations / flow_grpo num_inner_epochs（计入 step 数）' },
      ga: { label: '梯度累积', hint: 'gradient_accumulation_steps：每个优化器 step 的微步数（DanceGRPO：样本数）（计入 step 数）' },
      workers: {
        label: 'DataLoader 的 worker 数',
        hint:
          'flow_grpo：采样器与训练循环之间 DataLoader 的 num_workers（其脚本为 1）；worker 会在 set_epoch 生效之前预取索引 batch；' +
          '0 = 训练循环直接读采样器',
      },
      prefetch: {
        label: '预取因子',
        hint: 'flow_grpo：DataLoader 的 prefetch_factor，每个 worker 预先抽取的索引 batch 数（PyTorch 默认 2；--num-workers 0 时不用）',
      },
      prepare: {
        label: 'accelerator.prepare',
        hint:
          'flow_grpo：1 = 训练 DataLoader 经过 accelerator.prepare（多看一个 batch；多个 rank 时 BatchSamplerShard 每 W 个 batch 取一个），' +
          '与 ac4c86e 的 train_sd3.py 相同；0 = 不经过 accelerator.prepare（flow-grpo-lcm 的脚本，74db691）',
      },
      balance: {
        label: '均衡 batch',
        hint: 'verl trainer.balance_batch：按词元工作量在各 rank 间重排每个 step 的样本（开或关，verl 默认开）',
      },
      mini: {
        label: 'PPO mini-batch（prompt 数）',
        hint: 'verl actor.ppo_mini_batch_size，单位为 prompt；0 = data.train_batch_size（计入 step 数）',
      },
      micro: {
        label: '每 GPU 的 PPO micro-batch',
        hint: 'verl actor.ppo_micro_batch_size_per_gpu，单位为样本；0 = 整个每 rank 的 mini-batch（计入 step 数）',
      },
      dlworkers: {
        label: '数据加载进程数',
        hint: 'verl data.dataloader_num_workers（verl 默认 8）；只要有 worker，torchdata.StatefulDataLoader 每个 epoch 抽两次排列并使用第二次',
      },
      prefix: {
        label: '前缀分组',
        hint: 'verl actor.use_prefix_grouper：_balance_batch 把一个 prompt（同一 uid）的所有副本放在同一 rank 上，按整组平衡（开或关，verl 默认关；train_batch_size 个 prompt 须能均分到各 rank）',
      },
      keepmini: {
        label: '保留 mini-batch',
        hint: 'verl _balance_batch(keep_minibatch=True)：每段 ppo_mini_batch_size 个样本各自平衡（开或关；b178a3c 的 RayPPOTrainer.fit 从不传它，所以 verl 实际运行的是关）',
      },
      dynbsz: {
        label: '动态 batch 大小',
        hint:
          'verl actor.use_dynamic_bsz：每个 rank 的 mini-batch 按词元数切分（rearrange_micro_batches，差分划分），' +
          '而不是按 ppo_micro_batch_size_per_gpu 个样本（开或关，verl 默认关）',
      },
      maxtok: {
        label: '每 GPU 的 PPO 最大词元数',
        hint: 'verl actor.ppo_max_token_len_per_gpu：use_dynamic_bsz 下一个 micro-batch 的词元预算（verl 默认 16384）',
      },
      ulysses: {
        label: '序列并行大小（每组 GPU 数）',
        hint:
          'verl actor.ulysses_sequence_parallel_size：共同处理每条序列的 GPU 数；ranks 仍是数据并行大小（共 ranks × S 个 GPU），' +
          'use_dynamic_bsz 按 ppo_max_token_len_per_gpu × S 个词元切分 micro-batch（verl 默认 1）',
      },
    },
    presets: {
      'seed-000':
        'flow_grpo DistributedKRepeatSampler：8 个 rank × 每 rank 2 个样本，每个 prompt k=4 个副本，每个 epoch 2 个 batch，种子 42。' +
        '数据集有 32 个 prompt（id 0–31）：小到每个 id 都能看清，又大到抽取的正是 PyTorch 在每次 set_epoch 时生成的真实 randperm(32)。' +
        'seed-000 文档在每个 step 读取一个新的 batch：每个 batch 16 个样本 = 4 个 prompt × 4，每个 epoch 8 个大小为 4 的组。' +
        '加载器设置取自发布的 train_sd3.py（ac4c86e），它的 DataLoader 和 accelerator.prepare 会改变这些组' +
        '（`grpo-sandbox layout --preset seed-000` 说明如何改变；`--num-workers 0 --accelerate-prepare 0` 给出文档中的循环）。',
      'seed-001':
        '扩展 batch（batch 4 × 组大小 5 = 20 个配置）：最接近理想方案的布局，4 个 rank 各自持有自己样本的 5 个配置' +
        '（contiguous，共 4 个 prompt；`--sampler dance-grpo` 给出 DanceGRPO 自己的循环，每一遍都沿用第 0 遍的顺序）。' +
        '各执行方案、时间线与加速比：`grpo-sandbox schedule --preset seed-001`。',
      'seed-002':
        'ms-swift 动态采样，4 个 rank × 16 个样本（4 个 prompt × 4 个 completion），全局目标 64。ms-swift 的 GRPOTrainer ' +
        '建立在 TRL 之上（RepeatSampler、连续的组、每个进程一个连续块），所以布局是 trl；64 个 prompt 给出每个 epoch 4 个生成 batch。' +
        '短池切片缺陷导致的形状不匹配：`grpo-sandbox ranks --fault shape`（`--fix` 得到相等的 batch）。' +
        '过滤、重采样与各种短缺策略：`grpo-sandbox dynamic --preset seed-002`。',
      'seed-003':
        '两阶段控制器：batch 大小 1，每个输入采样 5 个配置作为一组，在一个 rank 上（contiguous，每个 step 一个 prompt）。' +
        '控制器及其 knob-3 掩码在 src/core/env/controller.ts；它的成对损失：`grpo-sandbox loss` 配合 ' +
        'lossType "pairwise"；跨 rank 训练它：`grpo-sandbox train --preset seed-003`。',
      'seed-004':
        '跨 rank 的池与设备不匹配，4 个 rank × 16 个样本，k=4，全局池 64，切片 [0:16] [16:32] [32:48] [48:64]：' +
        '与 seed-002（ms-swift）相同的类 TRL 布局。gather_object 之后的设备错误：`grpo-sandbox ranks --fault device`；' +
        'V2 死锁：`--fault deadlock` 或 `--fault mismatch`（各自可加 `--fix`）；健康的池，然后是设备错误及其修复：' +
        '`grpo-sandbox dynamic --preset seed-004`。',
    },
    does: {
      'flow-grpo': '汇集整个 epoch，并用它的 PerPromptStatTracker 按 prompt 分组',
      'flow-grpo-lcm': '汇集整个 epoch，并用它的 PerPromptStatTracker 按 prompt 分组',
      trl: '汇集每个生成 batch，并用 rewards.view(-1, k) 分组',
      'dance-grpo': '把全部 k 个副本放在一个 rank 上并就地归一化，无需 gather',
      verl: '在驱动进程上持有整个 batch，按每个 prompt 在复制之前得到的 uid 分组（compute_grpo_outcome_advantage）',
      contiguous: '把全部 k 个副本放在一个 rank 上，所以每个 rank 无需 gather 就能组成自己的组',
      'group-distributed':
        '把每个 prompt 的副本分散到各 rank，所以组在 gather 之后才形成（这里按抽取分组：本沙盒所依据的文档没有记录它的确切分组方式）',
    },
    regroup: {
      'prompt-id': '在 gather 上按 prompt id（flow_grpo PerPromptStatTracker）',
      view: '在汇集顺序上 view(-1, k)（TRL）',
      uid: '按每次抽取的 uid（verl）',
      local: '每个 rank 上 k 个相邻样本，无 gather（DanceGRPO）',
    } as Record<RegroupMethod, string>,
  },
  config: {
    title: '配置',
    preset: '预设',
    custom: '自定义',
    sampler: 'sampler',
    otherFrameworks: '按自己的配置文件读取的框架（各有自己的视图）：',
    tryFix: '试试：',
    showingLast: '在此期间显示上一个有效布局。',
    loaderNote: (loader: string, expected: [number, number][], real: [number, number][], pairs: string[]) =>
      `seed-000 文档期望每个 step 都是一次新的抽取：每个 epoch ${groupsZh(expected)}。flow_grpo 发布的 train_sd3.py ` +
      `通过 ${loader} 读取 sampler，在这些设置下 ` +
      (pairs.length > 0 ? `${pairs.join('，')}，因此 ` : '') +
      `PerPromptStatTracker 每个 epoch 看到 ${groupsZh(real)}。把“DataLoader 的 worker 数”和“accelerator.prepare”都设为 0，即为文档中的循环。`,
  },
  follow: {
    title: '跟踪什么',
    gatherRange: (n: number) => `gather（1 … ${n}）`,
    gather: 'gather',
    gatherOption: (i: number, epoch: number, steps: readonly number[]) =>
      `${i}：epoch ${epoch}${steps.length === 1 ? `，step ${steps[0]}` : `，step ${steps[0]}–${steps.at(-1)}`}`,
    regroup: 'gather 之后的重组方式',
    short: {
      'prompt-id': '按 prompt id（flow_grpo）',
      view: 'view(-1, k) 行（TRL）',
      uid: '按 uid（verl）',
      local: '各 rank 本地，无 gather（DanceGRPO）',
    } as Record<RegroupMethod, string>,
    whatIfLead: '假如',
    whatIf: (framework: string, does: string) => ` —— 这不是 ${framework} 的做法：它${does}。`,
    useDefault: (framework: string) => `改用 ${framework} 的方式`,
    compare: '并排比较',
    nothing: '不比较',
    rewards: 'reward',
    random: '随机（带种子的均匀分布）',
    model: '玩具 reward 模型（通过 / 失败）',
    scale: 'TRL scale_rewards',
  },
  controls: {
    toolbar: '故事控制',
    back: '后退一步',
    backTitle: '后退一步（←）',
    play: '播放',
    pause: '暂停',
    playTitle: '播放 / 暂停（空格）',
    playButton: '▶ 播放',
    pauseButton: '❚❚ 暂停',
    forward: '前进一步',
    forwardTitle: '前进一步（→）',
    phases: '阶段',
    jump: (title: string, n: number) => `跳到“${title}”（${n}）`,
    speed: '速度',
    keys: (n: number) => `按键：空格 播放/暂停 · ← → 单步 · 1–${n} 跳转 · + − 调速 · Esc 清除高亮`,
  },
  stats: {
    title: '统计（整个布局）',
    rows: {
      'samples-per-batch': '每个 batch 的样本数（全部 rank）',
      'prompts-per-batch': '每个 batch 抽取的 prompt 数',
      'samples-per-epoch': '每个 epoch 的样本数',
      'prompts-per-epoch': '每个 epoch 抽取的 prompt 数',
      'per-rank-per-batch': '每 rank 每 batch',
      'per-rank-per-epoch': '每 rank 每 epoch',
      steps: '每 epoch 的 step 数 · 总数',
      gathers: 'all-gather 次数 × 样本数',
      'mean-ranks-spanned': '一个组跨越的 rank 数（平均）',
      'max-copies-on-rank': '一个 rank 上同组副本的最大数',
      'drawn-twice': '一个 epoch 中被抽到两次的 prompt',
      'off-size-prompt-groups': '大小 ≠ k 的 prompt-id 组',
      'mixed-view-rows': '若用 TRL 的 view(-1, k) 重组：混合不同 prompt 的行',
    },
    counts: {
      title: '按训练循环的计数（每个进程）：每个 epoch · 全部',
      'generation-batches': '生成 batch 数',
      'micro-steps': 'micro-step 数（前向/反向）',
      'optimizer-steps': '优化步数（权重更新）',
    },
    of: (a: number, b: number) => `${a} / ${b}`,
    histogram: '按跨越 rank 数统计的组',
    ranks: (n: number) => `${n} 个 rank`,
  },
  copies: {
    title: '一个 prompt 的副本',
    promptId: 'prompt id',
    highlight: '高亮的 prompt id',
    clear: '清除',
    hint: '将鼠标悬停在方块上可高亮一个 prompt 的副本；点击或轻点它（或输入 id）可保持高亮。',
    notDrawn: (p: number) => `prompt ${p} 在此布局中没有被抽到。`,
    summary: (p: number, n: number, inFollowed: number) => `prompt ${p}：布局中共 ${n} 个副本，所跟踪的 gather 中有 ${inFollowed} 个`,
    head: ['step', 'rank', '槽位', 'gather', '汇集 #'],
    reward: 'reward',
    advantage: 'advantage',
  },
  quiz: {
    title: '先预测，再揭晓',
    reveal: '揭晓',
    ranks: 'rank',
    answer: '你的答案',
    yes: '是',
    no: '否',
    positions: '汇集位置',
    placeholder: '例如 3, 17, 30',
    rank: (r: number) => `rank ${r}`,
    askRanks: (p: number, typed: boolean) =>
      `分发到各 rank 之后，P${p} 的副本会在哪些 rank 上？` + (typed ? '输入 rank 编号，然后揭晓。' : '选择 rank，然后揭晓。'),
    askMean: (rank: number, p: number, copies: number) =>
      `每个 rank 累积完样本后，rank ${rank} 能否不经 gather、独自计算 P${p} 这一组（一次抽取的 ${copies} 个副本）的均值？`,
    askPositions: (last: number, p: number) => `all-gather 之后，P${p} 的副本会在哪些汇集位置（0 … ${last}）？输入它们，然后揭晓。`,
    where: (r: number, n: number) => `rank ${r}${n > 1 ? `（${n} 个副本）` : ''}`,
    ranksResult: (p: number, where: string, hits: number, ranks: number, misses: number) =>
      `P${p} 的副本在 ${where}。你选中了这 ${ranks} 个 rank 中的 ${hits} 个` + `${misses > 0 ? `，另有 ${misses} 个没有副本` : ''}。`,
    right: '正确：',
    notQuite: '不完全对：',
    meanYes: (copies: number, rank: number) => `是的，这次抽取的全部 ${copies} 个副本都在 rank ${rank} 上，所以它能独自计算均值。`,
    meanNo: (rank: number, onRank: number, copies: number, others: string) =>
      `不能，rank ${rank} 只持有 ${copies} 个副本中的 ${onRank} 个；其余的在 ${others}，所以均值需要 gather。`,
    positionsResult: (p: number, positions: readonly number[], perRank: number, hits: number, misses: number) =>
      `P${p} 的副本位于汇集位置 ${positions.join(', ')}（rank × ${perRank} + 在该 rank 上的位置）。你说中了这 ${positions.length} 个中的 ${hits} 个` +
      `${misses > 0 ? `，另有 ${misses} 个位置是别的样本` : ''}。`,
    list: (items: string[]) => items.join('、'),
  },
  canvas: {
    aria: (n: number, phase: string) => `所跟踪 gather 的 ${n} 个样本，阶段 ${phase}；方向键在方块间移动，回车固定一个 prompt`,
    tile: (p: number, rank: number, step: number, slot: number, i: number) =>
      `prompt ${p} · rank ${rank} · step ${step} · 槽位 ${slot} · 汇集 #${i}`,
    reward: (r: string) => ` · reward ${r}`,
    advantage: (a: string) => ` · advantage ${a}`,
    colourKey: '颜色 = prompt：',
    advantageKey: '颜色 = advantage：',
    advantageRange: (low: string, high: string) => `这里从 ${low} 到 ${high}`,
  },
  overview: {
    title: '概览',
    building: (stage: string) => `方块太多，无法逐个绘制；正在后台构建概览：${stage}……`,
    startingWorker: '正在启动 worker',
    drawing: '正在生成随机排列（与 CLI 相同的 PyTorch 随机数生成器）',
    counting: (prompts: string, ranks: string) => `正在统计 ${prompts} 个 prompt 在 ${ranks} 个 rank 上的副本`,
    heading: (gather: number, count: string, zoom: string, samples: string) =>
      `第 ${gather} 次 gather（共 ${count} 次）的概览${zoom}（${samples} 个样本）`,
    zoom: (from: string, to: string, steps: readonly number[]) =>
      ` · rank ${from}–${to}，${steps.length === 1 ? `step ${steps[0]}` : `step ${steps[0]}–${steps.at(-1)}`}`,
    form: '选择概览显示的范围',
    gather: (n: string) => `gather（1 … ${n}）`,
    ranksFrom: 'rank 从',
    stepsFrom: 'step 从',
    to: '到',
    show: '显示',
    whole: '整个 gather',
    heatmap: (zoomable: boolean) => `热图：行是 rank，列是 prompt id，颜色越深副本越多${zoomable ? '；点击一行可放大到它的 rank' : ''}`,
    rankAxis: (from: string, to: string, perRow: number) => `↓ rank ${from} … ${to}${perRow > 1 ? `（每行 ${perRow} 个）` : ''}`,
    promptAxis: (last: string, perCol: string | null) => `prompt id 0 … ${last} → ${perCol !== null ? `（每列 ${perCol} 个）` : ''}`,
    samples: (zoomed: boolean) => `${zoomed ? '窗口中' : '该 gather 中'}的样本`,
    prompts: '不同的 prompt',
    ranksPerPrompt: '一个 prompt 到达的 rank 数（平均）',
    maxOnRank: '一个 rank 上同一 prompt 副本的最大数',
    steps: (zoomed: boolean) => `${zoomed ? '窗口中' : '该 gather 中'}的 step`,
    empty: (zoomed: boolean) => `此${zoomed ? '窗口' : ' gather '}为空。`,
  },
  train: {
    title: '在页面中训练控制器',
    derived: {
      spgFromGa: (ga: number) => `0 = 梯度累积步数（${ga}），与 TRL 相同`,
      spgNotRead: (sampler: string) => `只有 trl sampler 读取它：${sampler} 每个优化步只生成一个 micro-batch`,
      frameworkIdle: '它的 loss 归一化作用于 micro-step；梯度累积为 1、迭代 1 次时没有 micro-step：此处不起作用',
      frameworkUsed: (micro: number) => `它的 loss 归一化给一个优化步中的 ${micro} 个 micro-step 加权`,
    },
    intro:
      '与 grpo-sandbox train 相同的循环：每个 rank 都是本页的一个 Web Worker（当后端（--backend）需要且浏览器支持时，各自拥有一个 WebGPU 设备）；' +
      'reward 与 prompt id 经 all-gather 汇集，梯度经 all-reduce 归约，然后应用 Adam。',
    start: '开始',
    stop: '停止',
    reset: '重置',
    preset: '预设',
    noPreset: '（无）',
    exportJsonl: 'metrics.jsonl',
    exportCsv: 'metrics.csv',
    runLink: '本次运行的链接',
    idle: '尚未开始。',
    starting: (ranks: number) => `正在启动 ${ranks} 个 rank worker……`,
    running: (step: number, steps: number, device: string) => `训练中：第 ${step} / ${steps} 步，设备 ${device}。`,
    stopping: '本步结束后停止……',
    done: (step: number, steps: number, stopped: boolean) => (stopped ? `已在第 ${step} / ${steps} 步停止。` : `完成：共 ${steps} 步。`),
    failed: (message: string) => `运行失败：${message}`,
    last: (step: number, reward: number, fraction: number) =>
      `第 ${step} 步：reward ${reward.toFixed(4)}，达到最优的 ${(100 * fraction).toFixed(1)}%`,
    stepsPerSecond: (rate: number) => `${rate.toFixed(1)} 步/秒`,
    device: (ranks: number, device: string) => `${ranks} 个 rank worker，设备 ${device}`,
    cpuFallback: (reason: string) => `WebGPU 不可用（${reason}）：改用 CPU 训练。`,
    charts: {
      reward: 'reward（均值、std）',
      optimum: '占最优的 %',
      loss: 'loss',
      kl: '相对初始策略的 KL',
      klOff: '没有参考模型：β = 0',
      entropy: '每个决策头的熵（nats）',
      zeroStd: 'std 为零的比例（打平的组）',
      advantage: 'advantage 的离散度（batch 内的 std）',
      gradNorm: '梯度范数（裁剪前）',
      clip: 'clip 比例',
      clipOff: '没有可裁剪的：每次生成只做一遍优化，比率保持为 1',
      lossNote:
        'loss 按构造约为 0：on-policy（每次生成只做一遍优化）时比率为 1，loss 就是 advantage 均值的相反数，而 advantage 在每组内已中心化；' +
        '真正起训练作用的是它的梯度：按 advantage 加权的对数概率梯度之和（见梯度范数）。',
      budget: '各预算区间的 reward：贪心策略对比最优',
      series: CHART_SERIES_ZH,
    },
    policyTitle: '按延迟预算学到的策略（贪心）与最优策略对照',
    configText: (c: { crops: number; p: number; topK: number; blocks: number }) =>
      `${c.crops} 个裁剪 · 插入位置 ${c.p} · top-${c.topK} · ${c.blocks} 个激活块`,
    policyPending: '正在（在 worker 中）对题库中每个 prompt 评估学到的策略……',
    policyNone: '运行结束或停止后显示。',
    policyHead: ['预算', 'prompt 数', '策略：最常见的选择', '延迟 ms', 'reward', '最优：最常见的选择', '延迟 ms', 'reward'],
    randomFraction: (f: number) => `均匀随机策略在此题库上达到最优的 ${(100 * f).toFixed(1)}%。`,
    isolation: {
      title: '训练需要跨源隔离',
      insecure: '页面不是安全上下文（请通过 https 或从 localhost 提供）',
      coop: (got: string | null) =>
        `页面${got ? `带有 Cross-Origin-Opener-Policy: ${got}` : '没有 Cross-Origin-Opener-Policy 响应头'}（需要 same-origin）`,
      coep: (got: string | null) =>
        `页面${got ? `带有 Cross-Origin-Embedder-Policy: ${got}` : '没有 Cross-Origin-Embedder-Policy 响应头'}（需要 require-corp 或 credentialless）`,
      unread:
        '无法读取页面的响应头；它需要 Cross-Origin-Opener-Policy: same-origin 和 Cross-Origin-Embedder-Policy: require-corp（或 credentialless）',
      frame: '嵌入它的页面或框架本身没有跨源隔离（每一层祖先都需要同样的两个响应头）',
      why: '各 rank 通过 SharedArrayBuffer 共享集合通信，而浏览器只把它提供给跨源隔离的页面。',
      missing: (list: string[]) => `缺少：${list.join('；')}。`,
      fix: '`npm start` 与 `npm run preview` 会发送这两个响应头（vite.config.ts）。',
    },
  },
  schedule: {
    title: '扩展后的 batch 如何在各 rank 上运行',
    settings: '设置',
    preset: '预设',
    ranks: 'rank 数',
    batch: 'batch',
    k: 'k（组大小）',
    alpha: 'α',
    maxBatch: 'max-batch',
    latency: '延迟',
    constant: '常数 T',
    controller: '控制器任务',
    configTime: 'config-time（ms，留空：T）',
    policy: '策略',
    uniform: '均匀',
    trained: '训练所得（检查点）',
    seed: '随机种子',
    runFiles: '训练结果：checkpoint.json + config.json',
    runLoaded: (name: string) => `训练所得策略：${name}`,
    computing: '正在计算训练所得策略的表……',
    hoverHint: '将鼠标悬停在一次 launch 上或轻点它，可查看其配置。',
    legendIdle: '空闲（斜线）',
    legendGather: 'all-gather',
    sample: (s: number) => `样本 ${s}`,
    moreSamples: (n: number) => `…… 另有 ${n} 个样本`,
    table: '比较',
    scheme: '方案',
    makespan: 'makespan',
    speedup: '相对 serial-dp 的加速比',
    idle: '每 rank 空闲比例',
    launches: 'launch 次数',
    peak: '峰值 batch',
    captions: '每个方案为何耗时如此',
    error: (m: string) => `无法绘制此调度：${m}`,
    rank: (r: number) => `rank ${r}`,
    ganttAria: (schemes: string) => `甘特图：${schemes}（rank × 时间，同一时间尺度）`,
    idleTitle: (rank: number, pct: number, of: string) => `rank ${rank} 空闲 ${of} 中的 ${pct}%`,
    explain: { headline: headlineZh, caption: captionZh, conclusion: conclusionZh },
    presetIntro: {
      'seed-001':
        'seed-001：batch 4 × 组大小 5 = 20 个配置，4 个 GPU，每个配置耗时 T；目前的循环在 GPU 0 上逐个运行它们（20T），' +
        '让每个 GPU 运行自己的样本则只需 5T。',
    },
  },
  dynamic: {
    title: '动态采样，逐步演示',
    settings: '设置',
    preset: '预设',
    none: '无（随机 reward）',
    policy: '策略',
    policyLegend: '不足时的策略——最后一次重采样之后样本池仍然不足时各个 rank 怎么做：',
    deviceFix: 'device-fix',
    presetFixes: '按预设的方式运行',
    on: '开（.to(device)）',
    off: '关',
    p: 'p（成功概率）',
    ranks: 'rank 数',
    perRank: 'per-rank',
    k: 'k',
    maxResample: 'max-resample-times',
    seed: '随机种子',
    prev: '◀ 上一步',
    next: '下一步 ▶',
    play: '播放',
    pause: '暂停',
    stepOf: (i: number, n: number, what: string) => `训练步的第 ${i + 1} / ${n} 阶段：${what}`,
    presetOtherPolicy: (preset: string, own: string) => `场景中的 ${preset}，使用它自己的策略（${own}）：`,
    slicesStep: '每个 rank 取走自己的切片',
    trainStep: '训练 step：把切片堆叠（torch.stack），再 gather',
    inPage: '图示：在本页运行的协议（一个线程，W 个并发副本在每次 gather 时相遇；src/core/dynamic）。',
    workers: (n: number) =>
      `训练 step：${n} 个 rank 以 Web Worker 运行，共享一个 SharedArrayBuffer（src/ranks），运行的是 grpo-sandbox dynamic 命令的程序。`,
    running: '正在 rank worker 上运行……',
    waiting: '滚动到此视图时 rank worker 才会启动',
    notRun: (why: string) => `训练 step 没有在真实的 rank 上运行。${why}`,
    planMatches: (n: number) => `检查：全部 ${n} 个 worker rank 做出了相同的决定，与页内协议一致`,
    planDiffers: '检查：worker 的计划与页内计划不同（这是缺陷：请报告）',
    ranksDisagree: '检查：各 rank 不一致（这是缺陷：请报告）',
    runHeader: (i: number, fix: boolean) => `—— 第 ${i} 次运行：device fix ${fix ? '开' : '关'} ——`,
    trainLine: (fix: boolean, rebalance: boolean) =>
      `训练 step：每个 rank 对其切片的 reward 做 torch.stack${fix ? '（先 .to(rank.device)）' : '（张量未移动）'}，然后为 loss 做 ${
        rebalance ? 'allGatherVariable' : 'allGather'
      }`,
    stacked: (r: number, shape: number[], device: string, origins: string[], rows: number) =>
      `rank ${r}：在 ${device} 上 stack 得到 [${shape.join(', ')}]（切片原在 ${origins.join(', ') || '无设备'}）；gather 得到 ${rows} 行`,
    ok: (n: number) => `成功：该 step ${n === 1 ? '在唯一的 rank 上' : `在全部 ${n} 个 rank 上`}完成训练`,
    failedTrain: '模拟运行失败了；所有 worker 已停止。以下是沙盒自己的诊断，立即给出（真实的 NCCL 运行会一直挂起，直到看门狗超时）：',
    failedTrainOwn: '模拟运行失败了；所有 worker 已停止：',
    failedGeneration: '模拟运行在生成循环中失败，尚未取切片，也未运行训练 step；所有 worker 已停止：',
    failedCollect: '模拟运行在收集阶段失败，尚未取切片；所有 worker 已停止：',
    eventLine: (
      label: string,
      generated: number,
      groups: number,
      flat: number,
      added: string,
      byRank: number[],
      pool: number,
      target: number,
    ) => `${label}：生成 ${generated} 个，${groups} 个组，${flat} 个打平 → ${added}（按 rank：${byRank.join(' ')}）→ 池 ${pool}/${target}`,
    shortage: (s: number, t: number) => `短缺：${s}/${t}`,
    sweep: '稀疏度扫描：打平组的比例，理论值 p^G + (1 − p)^G 对比模拟',
    runSweep: '运行扫描',
    sweepRunning: (u: number, t: number) => `扫描正在 worker 中运行：${u}/${t} 步`,
    sweepDone: (steps: number, ms: number) => `${steps} 步，用时 ${(ms / 1000).toFixed(1)} 秒（在 worker 中运行；页面保持可响应）`,
    sweepAbout: (policy: string, trials: number, k: number, ranks: number, perRank: number) =>
      `每个 p 做 ${trials} 次单步，${ranks} 个 rank × ${perRank}（k = ${k}，随机二值 reward），策略 ${policy}；` +
      'short = 最后一次重采样后池仍然不足（理论：二项分布）。',
    error: (m: string) => `无法运行此步：${m}`,
    policyAbout: {
      fallback: 'ms-swift：最后一次重采样后仍不足 → 每个 rank 都用自己原来的 batch 训练，包括打平的组',
      pad: '复制随机选出的有效样本（每个 rank 用相同的带种子选择）直到达到目标',
      rebalance: 'rank r 取 floor(pool/W) 个，前“池大小除以 W 的余数”个 rank 各多取一个（大小可能相差一）',
      raise: 'verl DAPO：num_gen_batches 达到 max_num_gen_batches（= 1 + 最大重采样次数）时抛出 ValueError',
      'raise-nemo': 'NeMo RL：同样的错误，晚一个 batch（它检查 num_gen_batches <= max）',
      stream: 'OpenRLHF：每个被丢弃的 prompt 立即被替换；当 min < 平均 reward < max 时保留该组；没有上限',
      naive: 'seed-002 的缺陷：rank r 从不足的池中切取 [L·r, min(L·(r+1), pool))，于是下一次 gather 出错',
    },
    presetAbout: {
      'seed-002':
        'seed-002：4 个 rank × 16，3 次重采样，池 48 → 56 → 60 → 62（目标 64）；朴素切片让 rank 3 只分到 14 个样本，下一次 gather 出错',
      'seed-004':
        'seed-004：4 个 rank × 16，池 56/64，一次重采样后达到 64/64，切片 [0:16] [16:32] [32:48] [48:64] 各含 2 组；' +
        '堆叠切片时出现设备错误，直到每个张量都用 .to(device) 移到同一设备',
    },
    presetDraws: {
      'seed-002':
        'k = 2（每个 rank 8 个 prompt × 2）：只保留整组时，第 3 次重采样要恰好补上 2 个样本，必须有 2 个成员的组' +
        '（文档中的 4 × 4 到不了 62）。每个 rank 的混合组数：原始 6,6,6,6（48）；重采样 1 为 1,1,1,1（+8）；' +
        '重采样 2 为 1,0,1,0（+4）；重采样 3 为 0,0,1,0（+2）。混合组的 reward 为 1,0；其余组全为 0 或全为 1。',
      'seed-004':
        'k = 8（每个 rank 2 个 prompt × 8，所以每个切片正好含文档所说的 2 组）。每个 rank 的混合组数：原始 ' +
        '1,2,2,2（56）；重采样 1 为 0,1,0,0（+8 → 64）。混合组的 reward 为 1,0,1,0,…；其余组全部相同。',
    },
    addedValid: (n: number) => `${n} 个有效`,
  },
  isolation: {
    insecure:
      '此视图需要 SharedArrayBuffer，而浏览器只把它提供给安全页面：请通过 https（或从 localhost）打开，' +
      '并以响应头 Cross-Origin-Opener-Policy: same-origin 和 Cross-Origin-Embedder-Policy: require-corp 提供页面。',
    frame:
      '此视图需要 SharedArrayBuffer，但它运行在一个没有跨源隔离的 iframe 中。外层页面必须以 Cross-Origin-Opener-Policy: same-origin 和 ' +
      'Cross-Origin-Embedder-Policy: require-corp 提供，被嵌入的页面以 Cross-Origin-Embedder-Policy: require-corp 提供' +
      '（来自其他站点时还需 Cross-Origin-Resource-Policy: cross-origin），并且 <iframe> 标签需要 allow="cross-origin-isolated"。',
    page:
      '此视图需要 SharedArrayBuffer，但本页没有跨源隔离：请以响应头 Cross-Origin-Opener-Policy: same-origin 和 ' +
      'Cross-Origin-Embedder-Policy: require-corp 提供页面（之后它从其他站点加载的每个脚本和图片都需要 Cross-Origin-Resource-Policy 或 CORS）。',
    noSab: '此视图需要 SharedArrayBuffer，但即使页面已跨源隔离，这个浏览器也不提供它；请试试最新的 Chrome、Edge、Firefox 或 Safari。',
  },
  steps: {
    title: '一个优化步看到什么：micro-batch、策略版本与每个 completion 的权重',
    framework: '框架',
    loss: 'loss',
    ranks: 'ranks',
    batch: 'batch',
    ga: '梯度累积',
    spg: '每次生成的步数',
    iters: '迭代次数 (μ)',
    spgDerived: '留空 = 梯度累积步数，与 TRL 相同',
    frameworkHint: '各 step 所依照的 micro-batch 切分与 loss 归一化所属的版本',
    lossHint: 'loss 类型（各版本之间不同的是它的归一化）',
    meta: (framework: string, loss: string) => `${framework}，loss \`${loss}\`：`,
    legend:
      '每个 rank 一行，每个 micro-step 一个方块（颜色：生成其 completion 的策略版本；斜线：off-policy 训练）。' +
      '柱高：每个 completion 的权重 ÷ 全局逐词元均值的权重（虚线 = 1）。每个优化步上方：它的更新大小，即全局词元均值的多少倍' +
      '（Σ 权重 × 词元数；×1.00 即大小相同）。用鼠标悬停在方块上可见其归一化方式。',
    more: (n: number) => `… 另有 ${n} 个优化步（grpo-sandbox steps --json 给出全部）。`,
    findings: '发现',
    error: (m: string) => `无法显示这些 step：${m}`,
    figure: {
      rank: (r: number) => `rank ${r}`,
      step: (i: number) => `step ${i}`,
      neverApplied: '从未应用',
      block: (micro: number, rank: number, policy: number, train: number, normaliser: string) =>
        `micro-step ${micro}，rank ${rank}：由策略 ${policy} 生成，在策略 ${train} 上训练；归一化 ${normaliser}`,
      bar: (completion: number, tokens: number, ratio: string) =>
        `completion ${completion}：${tokens} 个词元，权重为词元均值的 ${ratio} 倍`,
    },
    packing: {
      heading: (step: number) => `词元条：优化步 ${step} 中每个 rank 的 micro-batch`,
      switchLabel: 'verl 的开关：',
      legend:
        '每列一个 rank，每条是这个优化步的一个 micro-batch；每段是一个 completion，长度等于它的序列长度（prompt + 回复的词元数，' +
        '即 ppo_max_token_len_per_gpu 所计的量）。虚线是预算。点按（或悬停）一段，可点亮它的 prompt 的各个副本。',
      bySamples: (micro: number) =>
        `use_dynamic_bsz 关闭：每个 rank 按顺序把自己的 mini-batch 切成每份 ppo_micro_batch_size_per_gpu = ${micro} 个 completion 的 micro-batch，` +
        '不看它们的词元数。',
      ownCounts: (budget: number, counts: readonly number[]) =>
        `每个 rank 自己的份数 min(completion 数, ⌈词元数 / ${budget}⌉)：${counts.map((c, r) => `rank ${r} 为 ${c}`).join('，')}；` +
        'verl 让每个 rank 都按各 rank 中最大的份数运行（dist.all_reduce MAX），再由 Karmarkar–Karp 切分。',
      pickHint: '点按一段，可点亮它的 prompt 的各个副本。',
      copies: (prompt: number, places: readonly { rank: number; micro: readonly number[]; copies: number }[]) =>
        places.length === 0
          ? `P${prompt} 在这个优化步中没有副本。`
          : `P${prompt} 在这个优化步中的 ${places.reduce((a, p) => a + p.copies, 0)} 个副本：${places
              .map((p) => `rank ${p.rank} 的 micro-batch ${p.micro.join('、')}`)
              .join('；')}。`,
      clear: '清除',
      bar: (prompt: number | null, completion: number, tokens: number, micro: number, rank: number) =>
        `${prompt === null ? '' : `prompt ${prompt}，`}completion ${completion}：${tokens} 个词元（prompt + 回复），rank ${rank} 的第 ${micro} 个 micro-batch`,
      earlier: '← 上一个优化步',
      later: '下一个优化步 →',
      stepOf: (step: number, steps: number) => `优化步 ${step}（共 0–${steps - 1}）`,
    },
  },
  async: {
    title: '异步 GRPO：每一步训练的数据由哪个策略版本生成',
    framework: '框架',
    shipped: (value: string) => `（发布默认值 ${value}）`,
    noBound: (framework: string) => `${framework} 没有可调的陈旧度设置：它不做版本控制，没有任何东西限制被训练的 completion 能有多旧。`,
    derived: '推导得出',
    knobs: {
      'gen-workers': '生成 worker 数',
      concurrency: '每个 worker 的并发 completion 数',
      'train-batch-size': '每步 prompt 数',
      k: 'k（每个 prompt 的 completion 数）',
      steps: '训练步数',
      seed: '随机种子',
      lengths: 'completion 长度',
    },
    lengthNames: {
      bimodal: '双峰（¼ 的 prompt 难且长）',
      uniform: '均匀（64–1023 个词元）',
      'long-tail': '长尾（指数分布）',
    },
    legend:
      '上方：训练器的各个训练步，以及它等待 batch 的时间（斜线）。每条虚线是某一步结束时的一次权重更新，标注生成端在那里换上的策略版本。' +
      '下方：每个生成槽位一条泳道；每个条块是一个 completion，颜色表示解码它的策略版本（两种颜色：生成过程中遇到了一次更新）。' +
      '半透明：从未被训练；红框加 ✕：它所在的组被丢弃。用鼠标悬停在条块上可查看它的 prompt、版本和去向。',
    versions: '策略版本：',
    idleKey: '训练器等待',
    droppedKey: '被丢弃',
    run: (steps: number, seconds: string, trained: number, meanLag: string, maxLag: number, idle: string) =>
      `${steps} 个训练步用时 ${seconds} 秒，训练了 ${trained} 个 completion，平均滞后 ${meanLag}（最大 ${maxLag}）；` +
      `其中训练器有 ${idle} 秒在等待 batch（斜线）。`,
    lagIs: (framework: string) => `滞后按 ${framework} 自己的定义计算：`,
    dropsNone: '没有丢弃任何东西：生成的每个组要么被训练，要么在结束时仍在等待。',
    dropped: (n: number) => `被丢弃：${n} 个组（红色 ✕），没有一个被放回队列：`,
    why: {
      'stale-at-consumption': (n: number) => `${n} 个在训练器取用时已过于陈旧`,
      evicted: (n: number) => `${n} 个已生成完毕，但在权重更新时落在窗口之外，被逐出缓冲区`,
      'aborted-in-flight': (n: number) => `${n} 个仍在生成时因在权重更新时低于窗口而被中止`,
      'outside-step-window': (n: number) => `${n} 个落在训练器取数的训练步范围之外`,
    },
    firstDrop: (prompt: number, version: number) => `第一个：prompt ${prompt}，当时训练器处于 v${version}：`,
    bias: (trained: string, generated: string, bias: string) =>
      `长度偏差：被训练的 completion 平均 ${trained} 个词元，而所有生成完毕的平均 ${generated} 个（${bias}）。`,
    hard: (trained: number, generated: number) => `难题 prompt：${generated} 个生成完毕的 completion 中训练了 ${trained} 个。`,
    commandLead: '在终端中：',
    tableTitle: '每个框架按其发布默认设置运行同一负载',
    columns: ['框架', '设置', '平均滞后', '最大滞后', '丢弃', 'completion/秒', '训练器空闲（秒）', '长度偏差', '难题已训练'],
    inFigure: (framework: string) => `${framework}（图中设置）`,
    noVersionControl: '无版本控制',
    tableNote:
      '滞后是各框架自己的定义，所以同一个数字在两行里含义不同。长度偏差：被训练 completion 的平均长度相对所有生成完毕者；' +
      '难题已训练：难题 prompt 的 completion 中已训练数 / 生成完毕数。',
    error: (m: string) => `无法运行这次模拟：${m}`,
    figure: {
      trainer: '训练器',
      worker: (w: number) => `worker ${w}`,
      step: (t: number) => `第 ${t} 步`,
      idle: '空闲',
      update: (v: number) => `v${v}`,
      seconds: '时间（秒）',
      stepTitle: (t: number, version: number, completions: number, byVersion: string, waited: string) =>
        `第 ${t} 步，版本 ${version}：训练 ${completions} 个 completion（按版本 ${byVersion}）；为这个 batch 等待了 ${waited} 秒`,
      idleTitle: (t: number, waited: string) => `训练器为第 ${t} 步的 batch 等待 ${waited} 秒`,
      barTitle: (prompt: number, completion: number, tokens: number, from: string, to: string, versions: string, fate: string) =>
        `prompt ${prompt}，completion ${completion}：${tokens} 个词元，${from}–${to} 秒，由 ${versions} 解码；${fate}`,
      fate: (f: GroupFate) =>
        f.kind === 'trained'
          ? `在第 ${f.step} 步被训练（滞后 ${f.lag}）`
          : f.kind === 'dropped'
            ? `在 v${f.atVersion} 时被丢弃：${DROP_REASONS[f.why]}`
            : '到最后一步仍未被训练',
      lanesShown: (shown: number, slots: number) => `只画出 ${slots} 条泳道中的前 ${shown} 条。`,
    },
  },
  advantages: {
    title: '同一批 reward 在各框架中的 advantage',
    rewards: 'reward',
    prompts: 'prompt id',
    k: 'k（每个 prompt 的 completion 数）',
    variants: '显示所有变体，而不只是各框架的默认方案',
    legend:
      '每个方案一行，每个 completion 一列，列上方依次是它的序号、prompt id 和 reward；竖线把一个 prompt 的 completion 与下一个 prompt 的隔开。' +
      '每个格子是该 completion 的 advantage：大于 0 为蓝色，小于 0 为红色，框架得到 NaN 时为灰色。' +
      '方案名后的 ! 表示该框架会对这批数据给出提示（列在图下方）。',
    defaults: '各行：每个框架发布时的默认方案。',
    all: '各行：每个框架的所有方案。',
    badNumber: (field: string, text: string) => `${field}：“${text}”不是数字`,
    error: (m: string) => `无法比较这些 reward：${m}`,
    flagged: '各框架拒绝或提示的情况',
    refuses: '拒绝这批数据：',
    mixed: (k: number, runs: string) => `它按位置每 k = ${k} 个分一组，有的组混入了不同的 prompt：${runs}。`,
    run: (group: number, from: number, to: number, ids: string) => `第 ${group} 组（位置 ${from}–${to}）包含 prompt ${ids}`,
    nothingFlagged: '没有框架拒绝这批数据或对它给出提示。',
    perScheme: '各方案',
    grouping: {
      position: '按位置分组（每 k 个相邻样本）',
      uid: '按 uid 分组（同一 prompt 的每次抽取一个 uid）',
      'prompt-content': '按 prompt 内容分组',
      'group-object': '按它分发的组对象分组',
      batch: '把整个 batch 当作一组归一化',
    },
    summary: (best: number, bestA: string, worst: number, worstA: string, zero: number, n: number) =>
      `reward 最高者（#${best}）${bestA}，最低者（#${worst}）${worstA}；${n} 个 advantage 中有 ${zero} 个为 0`,
    figure: { completion: 'completion', prompt: 'prompt', reward: 'reward', refused: '拒绝这批数据' },
    weights: {
      title: '每个 completion 的词元在更新中的权重',
      lengths: 'completion 的 词元数（留空：用种子生成）',
      assumption:
        '各框架发布时默认的 loss 归一化方式（trl-grpo：TRL 的 loss_type=grpo，也是 ms-swift 的默认），取自 steps --framework ' +
        '为这批数据构造的优化步：一个 rank，整批数据是一个优化步，micro-batch 按各框架的默认方式切分。',
      given: 'completion 的 词元数按输入给定。',
      seeded: (seed: number, low: number, high: number) =>
        `未给出 completion 的 词元数：按 steps 的方式生成，均匀分布于 ${low}…${high}（种子 ${seed}）。`,
      weightLegend:
        '每个格子：该 completion 的一个词元 的权重，以全局 词元平均的权重（1 / 整批 词元数）为单位。' +
        '1 表示每个 词元权重相同（按 词元平均）；大于 1 为琥珀色，小于 1 为青色。按序列平均时，短 completion 的 词元权重更大。' +
        '标注“每样本”的行（flow_grpo、DanceGRPO：扩散模型训练器，其 loss 没有词元）：整个样本的权重 × 样本数（1 表示按样本平均）。',
      totalLegend: (n: number) =>
        `每个格子：该 completion 对更新的贡献，即 advantage × 权重 × 词元数 × ${n}；大于 0 为蓝色，小于 0 为红色。` +
        '按 词元平均时，advantage 相同的长 completion 比短的贡献更大；按序列平均时，每个 completion 只贡献它的 advantage。' +
        `标注“每样本”的行：advantage × 权重 × ${n}。`,
      loss: 'loss',
      switched: '（可选开关，不是默认）',
      normaliser: '归一化：',
      figure: {
        completion: 'completion',
        prompt: 'prompt',
        tokens: '词元数',
        refused: '拒绝这批数据',
        perSample: '每样本',
        perToken: '每词元',
      },
    },
  },
  framework: frameworkZh,
  embed: {
    waiting: '滚动到布局图时才会绘制它。',
    attributes: '有些属性无法读取：',
    stale: '显示的是上一个有效布局。',
    open: '在探索页中打开 ↗',
    next: (phase: string) => `下一步：${phase} ▶`,
    again: '↺ 从头开始',
    regrouped: (label: string) => `重组方式：${label}`,
  },
  exportControl: {
    label: '用于幻灯片的图',
    width: '宽（px）',
    height: '高（px）',
    saved: (name: string) => `已保存 ${name}`,
  },
  figureExport: {
    nothing: '此视图还没有可导出的图（开始运行后才会绘制）。',
    size: '图的尺寸是每边 16 到 8192 之间的整数像素。',
    png: '浏览器无法编码 PNG。',
  },
  scene: {
    step: (s: number) => `第 ${s} 步`,
    rank: (r: number) => `rank ${r}`,
    concatenated: (steps: number, perRank: number) => `每个 rank：${steps} 步拼接 = ${perRank} 个样本`,
    gathered: (n: number) => `汇集顺序，rank-major：#0 … #${n - 1}（阅读顺序）`,
    mixes: (prompts: string) => `✗ 混合了 ${prompts}`,
    size: (n: number) => `大小 ${n} ≠ k`,
    groups: (n: number) => `${n} 个组`,
    advantage: 'advantage：蓝 < 0 < 橙',
    slice: (perRank: number) => `rank r ← gathered[r·${perRank}, (r+1)·${perRank})`,
  },
  dynamicFig: {
    groups: (label: string) => `${label}：各 rank 的组，已汇集（有效：reward 不全相同；打平：全部相同）`,
    rank: (r: number) => `rank ${r}`,
    valid: '有效',
    flat: '打平',
    groupTitle: (group: string, origin: number, rewards: number[], valid: boolean) =>
      `组 ${group}，来自 rank ${origin}：reward ${rewards.join(', ')} → ${valid ? '有效' : '打平'}`,
    pool: (pool: number, target: number) => `池 ${pool}/${target}`,
    slices: '每个 rank 的切片，按每个样本来自的 rank 着色',
    slice: (from: number | null, to: number | null, source: string) => (from === null ? `（${source}）` : `[${from}:${to}]`),
    size: (n: number, of: number) => (n === of ? `${n}` : `${n} / ${of}`),
    origin: (r: number) => `来自 rank ${r}`,
    originKey: '颜色 = 生成该样本的 rank：',
    byDesign: '大小相差一个是设计如此',
    noSlices: '没有取切片：框架在其生成循环中抛出了错误',
    initial: '初始 batch',
    round: (d: number) => `第 ${d} 轮`,
    resample: (d: number) => `第 ${d} 次重采样`,
    aria: (label: string) => `动态采样，${label}`,
  },
  tours: {
    ui: {
      tour: '导览',
      tours: '导览',
      stepOf: (i, n) => `第 ${i} 步，共 ${n} 步`,
      back: '◀ 上一步',
      next: '下一步 ▶',
      close: '关闭导览（Esc）',
      end: '导览结束。',
      keys: '← → 切换步骤，Esc 关闭',
      fold: '把导览收起到标题栏',
      unfold: '显示这一步的说明',
      unknown: (name, names) => `没有名为“${name}”的导览；可用的导览：${names.join('、')}。`,
    },
    titles: {
      'seed-000': '一个 prompt 的 k 个副本去了哪里',
      'seed-001': '扩展后的 batch 以及它如何执行',
      'seed-002': '重采样 3 次仍不够时的动态采样',
      'seed-003': '训练两阶段控制器',
      'seed-004': '跨 rank 汇集后来自不同设备的张量',
      advantages: '一个 completion 的奖励在各框架的优势计算下变成什么',
      'trl-5619': 'TRL #5619：dapo 的更新大小与 steps_per_generation',
      'async-grpo': '为什么异步训练是 off-policy 的，以及各框架如何应对',
      packing: '打包：一个副本落进哪个 micro-batch',
    },
    steps: {
      'seed-000': [
        'flow_grpo 的 DistributedKRepeatSampler：8 个 rank × train_batch_size 2 = 每个 batch 16 个样本。每个 prompt 有 k = 4 ' +
          '个副本，所以每个 batch 抽 16 / 4 = 4 个 prompt，每个重复 4 次。',
        '每个 step 的 16 个样本按该 seed 的随机排列分到 8 个 rank 上，每个 rank 2 个：一个 prompt 的 4 个副本落在 3 或 4 个 rank 上，一个 rank 可能拿到' +
          '其中两个（P13 在 rank 3 上出现两次）。seed 文档预期 set_epoch(epoch × 2 + i) 让每个 batch 都是新的抽取，但真实脚本（train_sd3.py）通过经过 ' +
          'accelerator.prepare 的 DataLoader(num_workers=1) 读取 sampler，迭代器在循环之前就已建好：有 3 个索引 batch 在对应的 set_epoch 调用之前就被' +
          '抽取，所以这里的两个 step（0 和 1）都拿到 set_epoch(0) 的 batch：两列是同一次抽取。这才是这个配置真实运行时得到的结果。',
        '跟踪高亮的 prompt 13：每个 step 里它的 4 个副本中有两个在 rank 3 上（加载器把这个 batch 发了两次，所以这个 epoch 有 8 个副本，其中 4 个在 rank 3）。“每张 GPU 一个副本”的图只是示意' +
          '——一个 rank 上每个 batch 可以有 0 到 min(k, batch) = 2 个同一 prompt 的副本。某个 rank 打印自己 batch ' +
          '的形状时只看到自己的 2 个样本，这是正常的。',
        '每个 rank 把自己的各个 batch 追加并拼接起来：每个 epoch 每个 rank 2 个 batch × 2 = 4 个样本，仍然只有自己的。',
        'accelerator.gather 按 rank 顺序（rank-major）把这个 epoch 的 32 个样本汇集到一起。直到这时，每个 prompt 的副本才相遇：这里是 4 个 prompt，每个被抽到两次（8 ' +
          '个副本），而文档预期的是 8 个 prompt × 4 个副本。',
        'flow_grpo 的 PerPromptStatTracker 按 prompt 把汇集后的样本重新分组，不管它们在哪个 rank 上生成：在真实运行中每组有 8 个样本（2k），因为同一个 batch 来了两次。',
        '这一步把“DataLoader 的 worker 数”和“accelerator.prepare”两个设置都设为 0，以显示文档所假设的循环：num_workers 为 0，且不经过 ' +
          'accelerator.prepare，于是每个 batch 都在它的 set_epoch 调用之后才抽取。这个 epoch 现在有 8 个不同的 prompt，每组恰好 4 个副本。' +
          '两者都改回 1 即是真实脚本的情形。',
        '每个样本的 advantage 是它的 reward 减去所在组的平均 reward，所以副本必须先汇集到一起；再除以所有汇集样本 reward 的 std（flow_grpo 的 global_std）。' +
          '每个方块的颜色就是它的 advantage：图下方的图例给出色阶以及最低和最高的值。',
        '切回各个 rank：rank r 取 gathered[4r, 4r + 4)，正是它自己生成的 4 个样本，现在带上了 advantage。每个 rank 用自己的样本训练；组只存在于汇集后的视图中。',
      ],
      'seed-001': [
        'expanded_batch_size = batch_size × group_size：batch 4 × group 5 = 20 个配置（Sample1 → Config1-1 … ' +
          'Config1-5，以此类推）。repeat_interleave 把输入从 (4, seq) 扩展为 (20, seq)。',
        '理想的布局：4 个 rank 各自持有自己那个样本的 5 个配置。',
        '20 个配置如何执行：每种方案一张 Gantt 图，时间轴相同（rank × 时间）。一个配置耗时 T；现在的循环以 batch 1 逐个执行，全部在 GPU 0 上。',
        '并排比较：serial-dp 需要 20T，rank 1–3 一直空闲；每张 GPU 执行自己的样本（per-rank-serial）只需 5T——4 倍加速（20T / 5T），正是该场景预期的。',
        '五种方案全部显示，并让批处理有代价：α = 0.5，一个 5 个配置的 batch 耗时 T·(0.5 + 0.5·5) = 3T。per-rank-batched 每个样本一次 launch 执行完。',
        '各个配置的开销并不相同：延迟改用控制器任务给出的值（每个配置的 prefill 延迟，配置从 uniform 策略中抽取）。各条块长短不一，各方案的 makespan 和空闲比例也随之改变。',
      ],
      'seed-002': [
        'seed-002：4 张 GPU，每张需要 local_target = 16 个样本，所以 global_target = 64。ms-swift 基于 TRL：组是连续的，64 个样本经一次 all-gather ' +
          '汇集。',
        '动态采样（DAPO 风格）：reward 全部相同（std = 0）的组没有训练信号，会被丢弃。初始 batch：64 个中 48 个有效。这里的组大小是 k = 2 而不是 4：组总是整体保留或丢弃，只有 2 ' +
          '个一组才能让最后一次重采样恰好增加 2 个样本。',
        '各 rank 重新采样，最多 max_resample_times = 3 次：+8（56/64）、+4（60/64）、+2（62/64）。距 64 仍差 2 个。',
        '当前对 62 个样本的 pool 的切分：rank r 取 [16r, min(16(r+1), 62))，所以 rank 0–2 各得 16 个，rank 3 只得 14 个。每个格子按生成它的 rank 着色。',
        '在 4 个 rank Web Worker 上执行训练步：batch 大小不一致，gather 出错。沙盒立即指出 shape mismatch（[16, 1] 对 [14, 1]）；' +
          '真实运行在 NCCL 上会一直挂起，直到看门狗超时，在 gloo 上则会抛出错误。',
        '修复方案 1（推荐）：不足时每个 rank 都退回到原始 batch——大小一致，训练步可以执行，但 std = 0 的组也会参与训练。',
        '修复方案 3：local_target = floor(62 / 4) = 15，前 62 mod 4 = 2 个 rank 多取一个：16、16、15、15。所有有效样本都被使用；gather ' +
          '必须能接受相差一个的大小。',
      ],
      'seed-003': [
        'seed-003：batch size 1，group_size = 5。对每个输入，两阶段控制器采样 5 个配置（图像档位、插入位置、MoE top-K、激活的 block 数），每个都独立地 softmax 后 ' +
          'multinomial 采样。',
        '整个组都在一个 rank 上，5 个 reward 可以直接比较。seed 中的 loss：对每一对 reward_i > reward_j，取 −log σ(log π_i − log π_j)。',
        '训练面板使用 seed-003 的设置：seed 中的控制器（d_model 2048）、一个 rank、每步 5 个配置、pairwise loss；这里在 cpu backend 上只跑 30 步的' +
          '短训练，所有浏览器都支持它（另一个选项是 webgpu）。训练现在开始：rank 在 Web Worker 中训练，reward 图逐步画出。',
        '训练进行中，页面实时绘制 reward、达到最优的百分比、loss、各个 head 的熵和 zero-std 比例；KL 与 clip 比例两张图说明它们在这里为何为空（β = 0，每次生成只做一遍优化）。',
        '训练结束后，按延迟预算列出学到的策略并与最优配置对比。标准的 GRPO loss 只需改一个设置：修改 loss 后重新开始。',
      ],
      'seed-004': [
        'seed-004：4 个 rank × 16 个样本，64 个样本的全局 pool 再按 [0:16] [16:32] [32:48] [48:64] 切回给各个 rank。',
        '跨 rank 的动态采样：所有 rank 一起取数据、生成、打分。初始 batch：64 个中 56 个有效。这里的组大小是 k = 8 而不是 4，这样每个 rank 的 16 个样本正好是场景中描述的 2 个组。',
        '一次重采样增加 8 个，全部在 rank 1 上生成：global_pool = 64/64。同步本身没有问题。',
        'gather_object 把所有 rank 的样本收集进同一个 pool，每个张量仍在它原来的设备上：rank 2 的切片 [32:48] 里有 8 个在 rank 3 上生成的样本（格子按来源 rank 着色）。',
        '在 rank worker 上执行 torch.stack([s["rewards_per_func"] for s in my_samples])：得到与真实运行相同的设备错误（“Expected all ' +
          'tensors to be on the same device…”）。',
        '修复（该场景修复历史中的第四个）：stack 之前把每个张量移到当前 rank 的设备上（.to(device)，已在该设备上时不做任何事）。每个 rank 都得到 [16, 1]，训练步顺利执行。',
      ],
      'async-grpo': [
        'AReaL 按发布默认值 rollout.max_head_offpolicyness = 0 运行时，每个策略版本只放行一个 batch 的 prompt，所以生成要等每次权重更新。' +
          '每个训练步只训练它自己版本生成的 completion（每步一种颜色，滞后 0），训练器大部分时间在等 batch（斜线）：349.0 秒中有 269.0 秒。',
        'rollout.max_head_offpolicyness = 2 时，生成最多可领先 2 个版本，不再等每次更新：训练器只等 37.1 秒而不是 269.0 秒，整个运行用时 117.1 秒。' +
          '代价是：一个训练步现在训练的是旧策略生成的 completion，所以 batch 里混着几种颜色；两种颜色的条块在生成途中遇到了一次权重更新' +
          '（AReaL 在生成过程中更新权重）。这就是异步 GRPO 是 off-policy 的原因。这个上限数的是领先运行的 rollout，而不是每个 rollout 的年龄：' +
          '图下方的最大滞后是 4，超过了 2。',
        'TRL 的异步训练器从不暂停生成端，而是在取用时丢弃：版本落后训练器超过 max_staleness 的组，会在训练器取它时被扔掉。' +
          'max_staleness = 1 时有 18 个组被丢弃（图中红色 ✕，这里逐条列出），难题 prompt 的 57 个生成完毕的 completion 一个都没有被训练：' +
          '长 completion 到得晚，所以正是它们变得陈旧。被训练的 completion 平均 291 个词元，而生成的平均 874 个（−66.7%）：数据偏向短回答。',
        'NeMo RL 的发布默认值是 windowed 采样器、max_staleness_versions = 1，它在每次权重更新时执行窗口：窗口外 9 个已生成完毕的组被逐出，' +
          '17 个仍在生成且低于窗口的组被中止。15 个生成完毕的难题 completion 一个都没有被训练。这里的“max staleness 1”与上一步 TRL 的 ' +
          'max_staleness 1 是不同的规则。',
        '表格用每个框架的规则、按其发布默认设置运行同一负载。AReaL 和 ROLL 默认是同步的：滞后 0，训练器空闲最久（269.0 秒）。' +
          'prime-rl、open-instruct、SkyRL 和 slime 什么都不丢，最大滞后为 5。滞后是各框架自己的定义：比较各行要看它们丢弃了什么、训练了什么，' +
          '而不是看“staleness”这个词。',
      ],
      packing: [
        'NeMo RL，2 个数据并行 rank，每个 step 4 个 prompt × 4 个副本 = 16 个样本，关闭序列打包' +
          '（policy.sequence_packing.enabled false）。shard_by_batch_size 给每个 rank 连续的一半：rank 0 训练 ' +
          'P82 和 P1019 的副本，rank 1 训练 P522 和 P735 的副本。',
        '不打包时，每个 rank 把它的 8 个样本按顺序切成每个 policy.train_micro_batch_size = 4 个样本的 micro-batch：' +
          'rank 0 的 micro-batch 0 装着 P82 的全部 4 个副本。每段的长度是样本的词元数（合成的，带种子）；' +
          '每条的长度等于它的样本的词元数之和。',
        '打开 policy.sequence_packing.enabled（NeMo RL 随附的设置）：这个 step 的样本按长度装进每个最多 2048 个词元的箱' +
          '（虚线：max_total_sequence_length × train_micro_batch_size），第 j 个箱交给 rank j % 2。P82 的 4 个副本现在分布在 ' +
          'rank 0 的三个不同的 micro-batch 中，rank 0 训练 9 个样本，rank 1 训练 7 个。',
        '两个 rank 仍然都运行 3 个 micro-batch：这个数目是同步的，所以 rank 1 的最后一个 micro-batch 只有一个样本。' +
          '一个副本落进哪个 micro-batch，现在取决于它和邻居的长度，而不是它的位置。',
        'verl 的打包方式不同（steps 视图）：verl sampler，2 个 rank，4 个 prompt × 4 个副本，每个 rank 8 个 completion，' +
          '打开 actor.use_dynamic_bsz。每个 rank 的 8 个 completion（4561 和 4562 个词元，prompt + 回复）由 Karmarkar–Karp ' +
          '切成 min(8, ⌈词元数 / 2048⌉) = 3 个 micro-batch；关闭开关时是 2 个、每个 ppo_micro_batch_size_per_gpu = 4 个。' +
          'P15 在 rank 1 上的两个副本现在同在 micro-batch 1；关闭时它们分在 micro-batch 0 和 1。',
      ],
      advantages: [
        '四个 prompt 的 12 个 completion（格子上方三行：completion、prompt、奖励）。跟着 completion 9：prompt 2，奖励 0，' +
          '它的两个兄弟都得 1。verl 的默认 GRPO 按 uid 把它和兄弟分为一组，再除以无偏标准差：(0 − 0.67) / 0.58 = −1.15。',
        '分组决定结果。TRL 的 view(-1, k) 把位置 8–11 当作一组：prompt 2 的三个 completion 加上 prompt 3 唯一的一个' +
          '（图下已标出），于是 completion 9 得 −0.87，而 prompt 3 的 completion 11 在 verl 下独自成组（0），这里也得 −0.87。' +
          'flow_grpo 按 prompt id 分组，却除以全部 12 个奖励的标准差：−1.35。',
        '除不除以标准差：verl 设 norm_adv_by_std_in_grpo false（Dr. GRPO）只保留 r − 均值 = −0.67。TRL 的异步打分器除以 numpy ' +
          '的标准差（ddof 0，0.47 而不是 0.58）：−1.41。prompt 0 的四个相同奖励在三者下都是 0。',
        'eps：completion 9 现在得 0.999，只比兄弟低千分之一，所以这一组的标准差是 0.00047。TRL 的异步打分器只加 1e-8，' +
          '仍得 −1.41，和失败一样；flow_grpo 的跟踪器用每个 prompt 的标准差、加 1e-4（标准差的五分之一），得 −1.17。' +
          '奖励相同，标准差相同，只有 eps 不同。',
        'Leave-one-out（奖励回到第一批）：NeMo RL 的默认做法把 completion 9 与另外两个的均值（1）比较，只在它们的标准差大于 0 时' +
          '才除（这里是 0）：−1.00，不用 leave-one-out 则是 −1.15。SkyRL 的 rloo 也得 −1.00。prompt 1 唯一的成功' +
          '（completion 4）得 1.00 而不是 1.50。',
        'slime 只有在 batch 恰好有 n × rollout_batch_size = 16 个 completion 时才按每 n = 4 个一行归一化；这 12 个让它把整个 ' +
          'batch 当成一组（图下已标出）：completion 9 得 −1.13，而 prompt 0 的四个相同奖励在 verl 下是 0，这里各得 +0.81，' +
          '奖励了什么也没教会的 completion。',
      ],
      'trl-5619': [
        'TRL 1.9.0，loss dapo：2 个 rank × 每个 micro-step 2 个 completion，gradient_accumulation_steps 2，每个 optimizer step 训练 ' +
          '8 个 completion。steps_per_generation 4 时一个 generation batch 跨两个 optimizer step，而 dapo 用整个 generation batch 的 ' +
          'token 数去除每个 micro-step：每次更新约为全局 token 均值的一半（GA / spg = 0.5）。',
        '每个 optimizer step 同样是 8 个 completion，但 steps_per_generation 2 = GA：generation batch 就是累积窗口，每次更新正好是 token ' +
          '均值的大小（× 1）。全局 batch 相同，学习率却不同：这就是 TRL #5619。',
        'TRL 1.13.0（PR #6024）把归一化因子乘以 GA / steps_per_generation：steps_per_generation 4 时更新回到 token ' +
          '均值的大小，相差几个百分点以内（generation batch 的两半 token 数各不相同，修复假设它们相等）。',
        'steps_per_generation 2 时没有变化：仍是 × 1。斜线方块（steps_per_generation 4 时）是在 completion 生成之后又过了一个 optimizer step 才训练的 ' +
          'micro-step：无论哪种 loss，它们都是 off-policy。',
      ],
    },
  },
};

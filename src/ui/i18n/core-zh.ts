// The core's messages (src/core/messages: layout notes and ConfigError clauses) in Simplified
// Chinese: one template per message id over the same parameters the English is built from, so both
// languages quote the same numbers. The type lists every id the core can say: a message added to
// the core without its Chinese here does not compile (and test/ui/i18n-catalogue.test.ts checks it).
import type { RowsMaker } from '../../core/messages/errors.ts';
import type { MessageId, Params } from '../../core/messages/index.ts';
import { LAYOUT_SETTINGS } from '../../core/settings.ts';
import { STEPS_ZH } from './steps-zh.ts';
import { zhCN } from './zh-CN.ts';

/** A setting named by its flag ("batches-per-epoch") or param, as the Chinese settings table labels it. */
function label(flag: string): string {
  const s = LAYOUT_SETTINGS.find((x) => x.flag === flag || x.param === flag);
  return s ? zhCN.core.settings[s.param].label : flag;
}

/** Who cuts rewards into rows of k (the core's RowsMaker), named in Chinese. */
const ROWS_ZH: Record<RowsMaker, string> = { 'trl-view': 'TRL 的 view(-1, G)', 'dance-local': 'DanceGRPO 的本地分组' };

/** A name followed by a Chinese word: a space after Latin text, none after a full-width bracket or a Chinese character. */
const beforeWord = (name: string) => (/[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]$/.test(name) ? name : `${name} `);

/** "got …" in Chinese: an empty or non-numeric box in words. */
const got = (v: number | string) => `得到的是${typeof v === 'number' && Number.isNaN(v) ? '空值或非数字' : ` ${v}`}`;
const list = (values: readonly number[], more: boolean) => `${values.join(', ')}${more ? ', …' : ''}`;
const or = (parts: string[]) => parts.join(' 或 ');
const loader = (p: { workers: number; prefetch: number; prepared: boolean }) =>
  `num_workers=${p.workers}，prefetch_factor=${p.prefetch}，${p.prepared ? '经过' : '未经过'} accelerator.prepare`;

export const CORE_ZH: { [K in MessageId]: (p: Params<K>) => string } = {
  // Layout notes
  'note.verl.step': (p) =>
    `一个 step = data.train_batch_size=${p.prompts} 个 prompt × rollout.n=${p.k} = ${p.samples} 个样本；驱动进程持有全部样本，把第 r 个连续的 ${p.chunk} 个交给 rank r。`,
  'note.verl.seed': (p) =>
    `RandomSampler 的生成器只设一次种子（data.seed=${p.seed}）；` +
    (p.workers !== null
      ? `dataloader_num_workers=${p.workers} 时，torchdata.StatefulDataLoader 每个 epoch 会建两次 sampler 迭代器，` +
        '所以第 e 个 epoch 用第 2e+1 次排列，偶数序号的被抽出后丢弃（0 个 worker 时用第 e 次）。'
      : `第 e 个 epoch 用它的下一个 randperm(${p.datasetSize})。`) +
    `data.seed 未设置时 torch.Generator() 保持默认种子 ${p.defaultSeed}，所以每次这样的运行抽到的顺序都一样。`,
  'note.verl.drop-last': (p) => `drop_last：每个 epoch 排列末尾的 ${p.dropped} 个 prompt 永远不会被抽到。`,
  'note.verl.balanced': (p) =>
    `balance_batch=true：_balance_batch 按词元工作量（24576·长度 + 长度²）重排每个 step，所以一个 prompt 的 ${p.k} 个副本按长度散布到各 rank；` +
    'advantage 仍在驱动进程上按 uid 分组，但 mini-batch 会混合不同的 prompt。',
  'note.verl.prefix-grouper': (p) =>
    `use_prefix_grouper：_balance_batch 按整个 uid 组平衡（get_group_balanced_partitions）：每个 prompt 的 ${p.k} 个副本留在同一 rank 上，` +
    `每个 rank ${p.groups} 组，保持生成顺序（不做短-长-短重排）。`,
  'note.verl.keep-minibatch': (p) =>
    `keep_minibatch：_balance_batch 把 ${p.slices} 段、每段 ppo_mini_batch_size=${p.slice} 个样本（verl 用写下的 prompt 数去切样本列表）` +
    `各自在 rank 间平衡，每段每个 rank ${p.perRank} 个，再把每个 rank 排成短-长-短；RayPPOTrainer.fit 从不传 keep_minibatch=True。`,
  'note.verl.unbalanced': (p) =>
    `balance_batch=false：样本保持生成顺序，所以每个 prompt 的 ${p.k} 个副本是连续的` +
    (p.straddle ? `；每个 rank ${p.perRank} 个不是 k 的倍数，所以有些组跨两个 rank。` : '，并且在同一个 rank 上。'),
  'note.verl.ulysses': (p) =>
    `ulysses_sequence_parallel_size=${p.sp}：这里的 ${p.ranks} 个 rank 各是一个由 ${p.sp} 个 GPU 组成的数据并行组（共 ${p.gpus} 个，` +
    `mesh (dp, sp)）；dispatch 把 step 切成 ${p.ranks} 块，组内每个 GPU 拿到同样的 ${p.chunk} 个样本，每条序列的词元由它们分担。`,
  'note.verl.measured-seqlens': (p) => `词元数：给定的 ${p.count} 个实测值，按生成顺序。`,
  'note.verl.synthetic-seqlens': (p) =>
    `词元数是合成的（每个样本一个 torch.randint(${p.low}, ${p.high})，生成器以 --seed 设种子）；用 --seqlens FILE 给出实测值。`,
  'note.local-groups': () =>
    '一个 prompt 的全部 k 个副本都在同一个 rank 上（repeat_interleave）；advantage 在本地计算，gather 只用于记录日志。',
  'note.dance-grpo.local-groups': () =>
    '一个 prompt 的全部 k 个副本都在同一个 rank 上（repeat_interleave）；advantage 在该 rank 上按组计算（无偏 std + 1e-8），gather 只记录 reward。',
  'note.padded': (p) =>
    `DistributedSampler 重复排列开头的 ${p.to - p.from} 个索引，把排列从 ${p.from} 个补齐到 ${p.to} 个，` +
    `所以这些 prompt 每${p.per === 'epoch' ? '个 epoch' : '轮'}被抽到两次。`,
  'note.contiguous.unused': (p) =>
    `每个 rank 每个 epoch 最后的 ${p.unused} 个 prompt 用不到：循环只取该 epoch ${p.batches} 个 batch 中的 ${p.taken} 个，然后调用 set_epoch(epoch + 1)。`,
  'note.contiguous.dropped': (p) => `每个 rank 每个 epoch 丢弃最后的 ${p.dropped} 个 prompt（不完整的 batch，drop_last=True）。`,
  'note.dance-grpo.one-order': (p) =>
    'DanceGRPO 只调用一次 sampler.set_epoch(0)，然后循环 `while True: for batch in loader`，所以每一轮遍历数据都重复第 0 轮的顺序：' +
    `在全部 ${p.passes} 轮中，同样的 prompt 以同样的顺序落到同样的 rank 上（这里一个“epoch”是 ${p.steps} 个 step 的一轮）。`,
  'note.dance-grpo.dropped': (p) => `每个 rank 每轮丢弃最后的 ${p.dropped} 个 prompt（drop_last=True），每轮丢弃的都是同一批。`,
  'note.flow-grpo.reseeded': (p) =>
    `在 epoch e 的第 i 个 batch 之前，训练循环调用 set_epoch(e × ${p.batches} + i)，于是生成器以“随机种子 + 该数”重新设定种子，` +
    '每个 batch 都是独立抽取：一个 prompt 可能在同一 epoch 的两个 batch 中出现。',
  'note.flow-grpo.sd3-fast': (p) =>
    `--framework flow_grpo-sd3-fast-${p.commit}：flow_grpo 在 ${p.commit} 的 ${p.script} 的循环，每个 batch 前调用 set_epoch，再新建 ` +
    'iter(train_dataloader)，且从不交给 accelerator.prepare；它的 DataLoader 唯一的 worker 在 set_epoch 之后才启动，所以每个 batch ' +
    '都是它自己那次抽取（按 0 个 worker、未 prepare 布局），种子是脚本写进 sampler 的 42。',
  'note.flow-grpo.look-ahead': (p) =>
    `训练循环在每个 batch 之前调用 set_epoch(e × ${p.batches} + i)，但数据加载器（${loader(p)}）在循环开始前就建好了迭代器，` +
    `并在对应的 set_epoch 调用之前抽取 ${p.ahead} 个索引 batch：` +
    `step 0–${p.ahead} 都收到 set_epoch(0) 的 batch，step t ≥ ${p.ahead} 收到 set_epoch(t − ${p.ahead}) 生成的 batch，` +
    '所以 PerPromptStatTracker 会看到含 2k 个或更多副本的 prompt 组。`--num-workers 0 --accelerate-prepare 0` 显示理想循环。',
  'note.flow-grpo-lcm.epoch': (p) =>
    `每个 epoch 一个排列（生成器种子为“随机种子 + epoch”）：m=${p.m} 个 prompt × k=${p.k} = ${p.m * p.k} 个样本，` +
    `切成 ${p.batches} 个 ranks×batch=${p.stepSamples} 的 batch；一个组可能跨越两个 batch，但每个 prompt 每个 epoch 恰好出现 k 次。`,
  'note.flow-grpo-lcm.new-iterator': (p) =>
    `按 train_sd3.py（74db691）的运行方式：先 set_epoch(epoch)，再在每个 epoch 为数据加载器（${loader(p)}）新建迭代器，` +
    '所以 worker 预取的都来自本 epoch 的那一轮，并随迭代器一起丢弃：布局就是 sampler 自己的。',
  'note.flow-grpo-lcm.shards': (p) =>
    `经过 accelerator.prepare（脚本并不这样做）时，BatchSamplerShard 每个 step 从 sampler 取 ${p.ranks} 个 batch，只留下本 rank 的那个：` +
    `rank r 得到第 ((step × ${p.ranks} + r) 除以 ${p.batches} 的余数) 个窗口中自己的切片，所以同一 step 的各 rank 持有不同窗口的切片。`,
  'note.flow-grpo-lcm.repeats-pass-0': () =>
    '经过 accelerator.prepare（脚本并不这样做）时，DataLoaderShard 每次新建迭代器都对 sampler 调用 set_epoch(0)，所以每个 epoch 都重复第 0 轮。',
  'note.group-distributed.same-ids': (p) =>
    `每个 rank 以相同的顺序收到相同的 prompt id，每个 ${p.copies} 个副本；各 rank 的生成器不同，所以 completion 不同。每个 epoch 一个排列（随机种子 + epoch）。`,
  'note.trl.step': (p) =>
    `这里一个 step 就是一个生成 batch：${p.samples} 个样本 = ${p.prompts} 个 prompt × k=${p.k}；进程 p 取第 p 个长 ${p.block} 的连续块。`,
  'note.trl.seed': (p) =>
    `RepeatSampler 的生成器每次运行只设定一次种子：epoch e 接着 epoch e−1 的随机流继续；排列最后不完整的一段被丢弃（每个 epoch 有 ${p.dropped} 个 prompt 从未被抽到）。`,
  'note.trl.no-reuse': () => 'num_iterations × steps_per_generation = 1：TRL 对数据加载器给出的每个 batch 都做生成，没有复用。',
  'note.trl.reuse': (p) =>
    `TRL 的数据加载器把每个生成 batch 给出 ${p.times} 次（num_iterations=${p.iterations} × steps_per_generation=${p.stepsPerGeneration}）；` +
    `它只在第一次做生成，其余 ${p.times - 1} 次只是加载（复用缓存的 completion），所以这些重复在这里不算额外的 step。`,
  'note.trl.micro-batches': (p) =>
    `每个 rank 的 ${p.block} 个样本被用作 ${p.stepsPerGeneration} 个 batch=${p.batch} 的 micro-batch（每个 micro-step 一个）；` +
    `每 gradient_accumulation_steps=${p.accumulation} 个 micro-step 构成一次优化器 step（见 step 计数）。`,
  'note.trl.framework': (p) =>
    `--framework ${p.framework}：批量设置按 ${p.version} 的方式读取（${p.pinnedTo}）；prompt 的布局仍由 TRL 的 RepeatSampler 和 accelerate 的` +
    '按进程分块决定，与 TRL 1.x 相同。',
  'note.unsloth.rewrite': (p) =>
    `\`Unsloth\` 改写了批量：gradient_accumulation_steps ${p.ga} × WORLD_SIZE ${p.ranks} × per_device_train_batch_size ${p.from} 不是 ` +
    `num_generations=${p.k} 的倍数，所以 UnslothGRPOConfig 打印 "${p.notice}"，并在 TRL 读取之前把 per_device_train_batch_size 从 ${p.from} ` +
    `改为 ${p.to}；这里的 layout 是改写后那次运行的（WORLD_SIZE 即 ranks，\`torchrun\` 和 \`accelerate launch\` 会设置它；直接用 \`python\` 运行时读到 1）。`,
  'note.ms-swift.sequence-parallel': (p) =>
    `sequence_parallel_size=${p.sp}：ms-swift 自己的 RepeatSampler 把每个 generation batch 产出 num_iterations × steps_per_generation × ` +
    `${p.sp} = ${p.repeat} 次，gradient_accumulation_steps 变为 ${p.ga} × ${p.sp} = ${p.ga * p.sp}；每个进程载入图中的块，每个 micro-step ` +
    `训练缓存的 generation 的 ${p.slices} 个切片之一（grpo_trainer.py 的 _prepare_inputs，读过，未运行）。`,
  'note.trl.straddle': (p) => `每个进程的块（${p.block}）不是 k=${p.k} 的倍数：有些组跨越两个 rank。`,
  // ConfigError clauses
  'config.not-bool': (p) => `${label(p.setting)} 必须是 true 或 false，得到的是 ${p.got}`,
  'config.not-whole': (p) => `${label(p.setting)} 必须是 ≥ ${p.min} 的整数，${got(p.got)}`,
  'config.above-limit': (p) => `${label(p.setting)}=${p.value} 超过了本沙盒的上限 ${p.max}`,
  'config.seed-unsafe': (p) =>
    `${label('seed')} 必须是 ±(2^53−1) 以内的整数，${typeof p.got === 'string' ? '得到的数超出了这个范围' : got(p.got)}`,
  'config.seed-low-bits': () => 'PyTorch 只用它的低 32 位',
  'config.step-too-big': (p) => `一个 step 含 ${p.what}=${p.samples} 个样本，超过了本沙盒的上限 ${p.max}`,
  'config.layout-too-big': (p) => `这个布局有 ${p.samples} 个样本，超过了本沙盒的上限 ${p.max}`,
  'config.too-many-draws': (p) =>
    `这个布局需要 ${p.draws} 次生成器抽取（每次重设种子做一次 dataset-size=${p.datasetSize} 的随机排列），超过了上限 ${p.max}`,
  'flow-grpo.k-divide': (p) => `k=${p.k} 必须整除 ranks×batch=${p.total}`,
  'flow-grpo.batch-short': (p) =>
    `每个 batch 需要 m=ranks×batch/k=${p.m} 个不同的 prompt，但 dataset-size=${p.datasetSize}${p.fix ? `；改用 dataset-size ≥ ${p.m}` : ''}` +
    `（flow_grpo 不做检查：randperm(${p.datasetSize})[:${p.m}] 只返回 ${p.datasetSize} 个 prompt，最后几个 rank 的 batch 不足或为空）`,
  'flow-grpo-lcm.epoch-short': (p) =>
    `一个 epoch 需要 m=${p.m} 个不同的 prompt（m·k 须是 ranks×batch=${p.stepSamples} 的倍数），但 dataset-size=${p.datasetSize}` +
    `${p.fix ? `；改用 dataset-size ≥ ${p.m}` : ''}` +
    `（flow_grpo 不做检查：randperm(${p.datasetSize})[:${p.m}] 只返回 ${p.datasetSize} 个 prompt，该 epoch 最后几个 batch 不足或为空）`,
  'flow-grpo.fast-fixed': (p) =>
    `${p.flag}=${p.given} 不是 flow_grpo 的 train_sd3_fast.py 实际运行的值：无论配置怎么写，它的循环都按 ${p.flag}=${p.fixed} 布局` +
    `（去掉 ${p.flag}，或换一个 --framework）`,
  'verl.prefix-grouper-groups': (p) =>
    `use_prefix_grouper 让每个 prompt 的副本留在同一 rank 上，所以 data.train_batch_size=${p.groups} 个 prompt 必须能均分到 ranks=${p.ranks}`,
  'verl.keep-minibatch-slice': (p) =>
    `keep_minibatch 把每段 ppo_mini_batch_size=${p.slice} 个样本各自分到各 rank，所以它必须是 ranks=${p.ranks} 的倍数`,
  'verl.keep-minibatch-partial': (p) =>
    `keep_minibatch：这个 step 的 ${p.samples} 个样本不是 ppo_mini_batch_size=${p.slice} 的整数段；verl 的重排索引会把最后 ` +
    `${p.samples % p.slice} 个样本排除在 batch 之外，sandbox 不模拟这种布局`,
  'flow-grpo-lcm.batches-step': (p) =>
    `flow-grpo-lcm 把一个 epoch 切成 k/gcd(k, ranks×batch)=${p.k}/${p.gcd}=${p.step} 个 batch 的倍数` +
    `（m·k 必须填满 ranks×batch=${p.stepSamples} 的整 batch），所以 batches-per-epoch=${p.given} 会变成 ${p.effective}`,
  'contiguous.k-divide-batch': (p) => `k=${p.k} 必须整除 batch=${p.batch}（每个 rank 每个 step 取 batch/k 个 prompt，并将每个重复 k 次）`,
  'contiguous.dataset-short': (p) =>
    `dataset-size=${p.datasetSize} 只给 ranks=${p.ranks} 中的每个 rank ${p.perRank} 个 prompt，少于一个 step 的 batch/k=${p.perStep}`,
  'contiguous.batches-over': (p) =>
    `batches-per-epoch=${p.batchesPerEpoch} 超过了一个 epoch 能容纳的数量：ranks=${p.ranks} 中的每个 rank 每个 epoch 得到 ${p.perRank} 个 prompt，` +
    `即 ${p.most} 个每个 batch/k=${p.perStep} 的完整 batch`,
  'dance-grpo.batch-k': (p) =>
    `batch=${p.batch} 必须是 train_batch_size 个 prompt × k=${p.k}（DanceGRPO 把每个 prompt 重复 num_generations 次）`,
  'dance-grpo.dataset-short': (p) =>
    `dataset-size=${p.datasetSize} 只给 ranks=${p.ranks} 中的每个 rank ${p.perRank} 个 prompt，少于 train_batch_size=${p.trainBatch}：` +
    'drop_last 的 DataLoader 为空，DanceGRPO 的 while-True 循环会一声不响地永远空转',
  'group-distributed.k-multiple': (p) => `k=${p.k} 必须是 ranks=${p.ranks} 的倍数（每个 rank 持有每个 prompt 的 k/ranks 个副本）`,
  'group-distributed.k-divide': (p) => `k=${p.k} 必须整除 ranks×batch=${p.total}（每个 step 必须持有完整的组）`,
  'group-distributed.epoch-short': (p) =>
    `batches-per-epoch=${p.batchesPerEpoch} 的一个 epoch 需要 ${p.m} 个不同的 prompt，但 dataset-size=${p.datasetSize}`,
  'trl.k-at-least-2': (p) => `k (num_generations) = ${p.k} 至少应为 2：TRL 的 GRPO 每个 prompt 需要 2 个或更多 completion`,
  'trl.k-divide-generation': (p) =>
    `k=${p.k} (num_generations) 必须整除生成 batch ranks×batch×steps-per-generation=${p.ranks}×${p.batch}×${p.stepsPerGeneration}=${p.generation}`,
  'trl.dataset-short': (p) =>
    `一个生成 batch 需要 ${p.prompts} 个不同的 prompt（生成 batch ${p.generation} / k=${p.k}），但 dataset-size=${p.datasetSize}：` +
    'RepeatSampler 会丢掉唯一且不完整的那一块',
  'trl.both-given': () => '--generation-batch-size 和 --steps-per-generation 只能给一个（一个由另一个推出）',
  'trl.generation-batch-equal': (p) =>
    `同时给出时，generation-batch-size=${p.generationBatchSize} 必须等于 ranks×batch×steps-per-generation=${p.expected}`,
  'trl-018.generation-batch-straddles': (p) =>
    `generation-batch-size=${p.generationBatchSize} 是 batch=${p.batch} 的倍数，但不是 ranks×batch=${p.global} 的倍数：TRL 0.18.2 ` +
    `会接受它（它的检查 \`generation_batch_size % per_device_train_batch_size * num_processes\` 按 (${p.generationBatchSize} % ${p.batch}) × 进程数 计算），` +
    `设 steps_per_generation = ${p.generationBatchSize} // ${p.global} = ${p.stepsPerGeneration}，于是它的 RepeatSampler 的 ` +
    `${p.generationBatchSize} 个样本一块会跨越 dataloader 的批次，sandbox 不模拟这种布局`,
  'trl.sp-ms-swift-only': () => 'sequence-parallel-size 是 ms-swift 的 sequence_parallel_size：请给出 framework ms-swift-3602360',
  'trl.sp-divide': (p) => `sequence-parallel-size=${p.sp} 必须整除 ranks=${p.ranks}（ms-swift 让 ${p.sp} 个进程共同处理一条序列）`,
  'trl.generation-batch-multiple': (p) => `generation-batch-size=${p.generationBatchSize} 必须是 ranks×batch=${p.global} 的倍数`,
  'verl.samples-not-prompts': (p) =>
    `每个 step 的 ranks×batch=${p.ranks}×${p.batch}=${p.samples} 个样本必须是 data.train_batch_size 个 prompt × rollout.n=${p.k}（verl 把每个 prompt 复制 n 份）`,
  'verl.dataset-short': (p) => `dataset-size=${p.datasetSize} 小于 data.train_batch_size=${p.trainBatch}：drop_last 的数据加载器为空`,
  'verl.mini-above': (p) => `ppo-mini-batch-size=${p.mini} 个 prompt 超过了 data.train_batch_size=${p.trainBatch}`,
  'verl.mini-empty': (p) => `ppo-mini-batch-size=${p.mini} 个 prompt × n=${p.k} // ranks=${p.ranks} 使每个 rank 一个样本也没有`,
  'verl.micro-divide': (p) =>
    `ppo-micro-batch-size-per-gpu=${p.micro} 必须整除每个 rank 的 mini-batch ${p.mini}×${p.k}//${p.ranks}=${p.normalised}`,
  'verl.ulysses-gpus': (p) =>
    `每个 step 的 ranks×batch=${p.ranks}×${p.batch}=${p.samples} 个样本必须能分给 ranks=${p.ranks} 个数据并行组 × ` +
    `ulysses-sequence-parallel-size=${p.sp} 共 ${p.gpus} 个 GPU（不开 use_dynamic_bsz 时 validate_config 检查这一点）`,
  'framework.raises': (p) => `\`${p.framework}\` 报错：\`${p.says}\``,
  'framework.pinned-raises': (p) => `${p.framework}（提交 ${p.beforeCommit} 之前的 ${p.code}）报错：\`${p.says}\``,
  'fix.valid-k': (p) => `此处可用的 k：${list(p.values, p.more)}`,
  'fix.valid-ranks': (p) => `此处可用的 ranks：${list(p.values, p.more)}`,
  'fix.valid-here': (p) => `此处可用：${p.values.join(', ')}`,
  'fix.batches': (p) => or(p.batches.map((b) => (p.times === null ? `batch=${b}` : `batch=${b} (→${b * p.times})`))),
  'fix.dataset-size': (p) => `改用 dataset-size ≥ ${p.min}`,
  'fix.batches-per-epoch': (p) => `batches-per-epoch=${p.value}`,
  'fix.batches-per-epoch-or-dataset': (p) =>
    `改用 ${or([p.most === null ? '' : `batches-per-epoch ≤ ${p.most}`, p.need === null ? '' : `dataset-size ≥ ${p.need}`].filter(Boolean))}`,
  'fix.mini-at-most': (p) => `最多用 ${p.most}（0 = 全部）`,
  'fix.at-least': (p) => `改用 ≥ ${p.least}`,
  'fix.flag-values': (p) => `改用 ${or(p.values.map((v) => `${label(p.flag)} ${v}`))}`,
  'fix.steps-per-generation': (p) =>
    `可用 ${p.values.map((v) => `steps-per-generation ${v}`).join(' 或 ')}` +
    (p.followsGa
      ? `（或 ${p.values.map((v) => `gradient-accumulation-steps ${v}`).join(' 或 ')}，未给出 steps-per-generation 时它跟随 GA）`
      : ''),
  'fix.sampler': (p) => `改用 --sampler ${p.sampler}`,
  'fix.try': (p) => `试试 ${or(p.fixes)}`,
  'fix.lower-ranks-or-batch': () => `请调低 ${label('ranks')} 或 ${label('batch')}`,
  'fix.none-change-several': () => '没有哪个单独的设置能修正它，需要同时改几个',
  'fix.none-lower-several': () => '没有哪个单独的设置能修正它，需要同时调低几个',
  'advantages.rows': (p) => `${ROWS_ZH[p.rows]}：${p.count} 个 reward 无法按每行 ${p.size} 个排成行；个数必须是组大小的倍数`,
  'advantages.slice-back': (p) => `切回各 rank：${p.count} 个 gather 得到的值无法平均分给 ${p.ranks} 个 rank`,
  'schedule.alpha': (p) => `α 必须在 [0, 1] 之间（0：合批毫无节省，1：一批只花一个的时间），${got(p.got)}`,
  'schedule.config-time': (p) => `配置时间 T 必须是正数，${got(p.got)}`,
  'schedule.gather-cost': (p) => `gather-cost 必须是非负数，${got(p.got)}`,
  'schedule.too-many': (p) => `batch × k = ${p.total} 个配置，超过了模拟器的上限 ${p.max}`,
  'fix.smaller-batch-or-k': () => '请调小 batch 或 k',
  // A setting's text against its row; the features' rules
  'setting.not-whole': (p) => `${label(p.key)} 必须是整数，得到的是 ${p.got}`,
  'setting.between': (p) => `${label(p.key)} 必须在 ${p.min} 到 ${p.max} 之间，得到的是 ${p.got}`,
  'setting.not-number': (p) => `${label(p.key)} 必须是数字，得到的是 ${p.got}`,
  'setting.positive': (p) => `${label(p.key)} 必须是正数，得到的是 ${p.got}`,
  'setting.at-least': (p) => `${label(p.key)} 必须是 ≥ ${p.min} 的数，得到的是 ${p.got}`,
  'setting.at-most': (p) => `${label(p.key)} 必须是 ≤ ${p.max} 的数，得到的是 ${p.got}`,
  'setting.not-choice': (p) => `${label(p.key)} 必须是 ${p.choices.join('、')} 之一，得到的是 ${p.got}`,
  'setting.not-switch': (p) => `${label(p.key)} 必须是 on 或 off，得到的是 ${p.got}`,
  'setting.not-probability': (p) => `${label(p.key)} 必须是 0 到 1 之间的概率，得到的是 ${p.got}`,
  'setting.not-interval': (p) => `${label(p.key)} 必须写成 MIN,MAX 且 MIN < MAX（例如 0,1），得到的是 ${p.got}`,
  'setting.unknown-item': (p) => `${label(p.key)} 中有未知的项 ${p.got}；可选：${p.choices.join('、')}`,
  'train.unknown-preset': (p) => `未知的预设 ${p.got}；预设：${p.presets.join('、')}`,
  'train.dynamic-only': (p) => `${label(p.key)} 只在开启 dynamic-sampling 策略（${p.policies.join('、')} 之一）时适用`,
  'train.one-of': (p) => `${label(p.key)} 必须是 ${p.choices.join('、')} 之一，得到的是 '${p.got}'`,
  'train.either': (p) => `${label(p.key)} 必须是 ${or(p.choices)}，得到的是 '${p.got}'`,
  'train.k-at-least-2': (p) => `k 至少应为 2：只有一个样本的组没有相对 advantage，得到的是 ${p.k}`,
  'train.epsilon-low': (p) => `epsilon-low 必须在 [0, 1) 之间，得到的是 ${p.got}`,
  'train.non-negative': (p) => `${label(p.key)} 必须 ≥ 0，得到的是 ${p.got}`,
  'train.lr': (p) => `lr 必须在 (0, 1] 之间，得到的是 ${p.got}`,
  'train.dance-batch': (p) => `advantage dance 把每个 rank 的 ${p.batch} 个样本按每 k=${p.k} 个一段分组；请用 ${p.k} 的倍数作 batch`,
  'train.whole-at-least': (p) => `${label(p.key)} 必须是 ≥ ${p.min} 的整数，得到的是 ${p.got}`,
  'train.framework': (p) => `framework 必须是 ${p.frameworks.join('、')} 之一（它们的 loss 类型就是训练所用的），得到的是 '${p.got}'`,
  'train.steps-per-generation-trl': (p) =>
    `steps-per-generation 是 TRL 的设置：${p.sampler} sampler 每个 layout step 只生成一个 batch；请改用 sampler trl，或不设置它`,
  'train.async-bound-alone': () => 'max-staleness 要和 async FRAMEWORK 一起用（它限定的是那个 staleness 规则）',
  'async.rule-bool': (p) => `${p.flag}（${p.framework} 的 ${p.key}）取 true 或 false，得到的是 '${p.got}'`,
  'async.rule-choice': (p) => `${p.flag}（${p.framework} 的 ${p.key}）取 ${p.choices.join('、')} 之一，得到的是 '${p.got}'`,
  'async.rule-number': (p) => `${p.flag}（${p.framework} 的 ${p.key}）取${p.whole ? '整数' : '数值'}，得到的是 '${p.got}'`,
  'async.rule-at-least': (p) => `${p.flag}（${p.framework} 的 ${p.key}）至少为 ${p.min}，${got(p.got)}`,
  'async.rule-at-most': (p) => `${p.flag}（${p.framework} 的 ${p.key}）至多为 ${p.max}，${got(p.got)}`,
  'async.positive': (p) => `${p.key} 取正数，${got(p.got)}`,
  'async.length-distribution': (p) => `未知的 length-distribution ${p.got}；请从 ${p.choices.join('、')} 中选择`,
  'async.slots': (p) => `gen-workers × concurrency 为 ${p.slots} 个槽位，至多 ${p.max}：请调低其中之一`,
  'async.step-time-or-rate': () => 'step-time（每步秒数）与 train-tokens-per-second（每步时长 = 其词元数 ÷ 该速率）须且只须给出一个',
  'async.nemo-custom': () =>
    "sampler-policy custom 从 async_rl.sampler.target（'module:ClassName'）加载 PromptGroupSampler：那是沙盒无法运行的外部代码；" +
    '请选择 windowed、ready_first、weight_fifo 或 in_order',
  'train.async-setting-alone': (p) => `${p.key} 是异步模拟的设置，要和 async FRAMEWORK 一起用`,
  'train.async-not-its-setting': (p) =>
    `${p.key} 不是 ${p.framework} 的设置（它属于 ${p.owners.join('、')}）；${p.framework} 读取 ${[...p.reads, '工作负载的设置'].join('、')}`,
  'train.async-not-modelled': (p) =>
    `async ${p.framework}：` +
    {
      backend: '只在 backend cpu 上训练（融合的 WebGPU step 不保留旧版本来采样）',
      'micro-steps': '未对 micro-step 建模（gradient-accumulation-steps、num-iterations、steps-per-generation）',
      'dynamic-sampling': '未对 dynamic-sampling 建模（模拟里没有它的重采样）',
      'no-bound': '没有可设置的 staleness 上限（没有版本控制），所以 max-staleness 不适用',
    }[p.why],
  'train.async-groups': (p) => `async ${p.framework}：每个 step 必须包含完整的组：ranks × batch（${p.samples}）不是 k ${p.k} 的倍数`,
  'train.sequence-ratio': (p) =>
    `loss ${p.loss} 是 ${p.framework} 每个序列一个重要性比率的 loss（GSPO 的）；train 的 loss 算子每个词元一个：请用 ${p.losses.join('、')}` +
    `（\`grpo-sandbox steps --framework ${p.framework}\` 显示 ${p.loss} 的权重）`,
  'train.home-plain': (p) =>
    `${label(p.key)} 不能与 framework ${p.framework} 同用：它自己的设置决定优化步怎么切，而 train 把它的归一化用于整个全局 batch 的一个优化步；请去掉 ${label(p.key)}`,
  'train.home-refuses': (p) =>
    `framework ${p.framework} 不能把 ${p.samples} 个 completion（k=${p.k}）的一步当作一个优化步：${p.why}` +
    `（它在 train 中的设置就是这一步 batch 的设置：请改 ranks、batch 或 k，或换用另一个 loss：${p.losses.join('、')}）`,
  'train.framework-loss': (p) =>
    `loss ${p.got} 不是 ${p.framework} 的：它训练 ${p.losses.join('、')}（或 pairwise，它没有归一化）；请给出其中之一，或不写 loss，用它的默认值`,
  'train.micro-pairwise': (p) =>
    `${label(p.key)} 需要逐词元的 GRPO loss：loss pairwise 对整组排序；请改用 loss dapo（或 grpo、bnpo、dr_grpo）`,
  'train.micro-dynamic': (p) =>
    `${beforeWord(label(p.key))}和 dynamic-sampling 在这里不能同时用（dynamic sampling 每次更新只生成一次）；去掉其中一个`,
  'train.stream-batch': (p) => `dynamic-sampling stream 在每个 rank 的 ${p.batch} 个位置里替换整个 prompt；请用 k=${p.k} 的倍数作 batch`,
  'train.stream-split': (p) =>
    `dynamic-sampling stream 要求每组都在同一个 rank 上，但 ${p.sampler} sampler 把 prompt ${p.prompt} 放在了 rank ${p.at} 和 ${p.rank} 上；` +
    '请改用 sampler trl 或 contiguous',
  'train.dynamic-pairwise': () =>
    'loss pairwise 要求每个 step 里每个 prompt 恰好出现 k 次；开启 dynamic-sampling 时请用 loss dapo（或 grpo、bnpo、dr_grpo）',
  'train.dance-rebalance': () =>
    'advantage dance 按每个 rank 每 k 个一段归一化，但 rebalance 切出的片段不一定是 k 的倍数；请改用 advantage verl 或 flow-grpo',
  'train.over-budget': (p) =>
    `一个训练 step 有 ranks × batch = ${p.samples} 个样本` +
    (p.dynamic ? `，最多抽 ${p.draws} 次` : p.draws > 1 ? ` × ${p.draws} 个 micro-batch` : '') +
    `（dModel ${p.dModel}，hidden ${p.hidden}，按 CPU 估算），需要` +
    [p.memory ? `约 ${p.memory.need} 内存（预算 ${p.memory.budget}）` : '', p.time ? `约 ${p.time.need}（预算 ${p.time.budget}）` : '']
      .filter(Boolean)
      .join('和') +
    `；请调低 batch 或 ranks` +
    (p.dynamic ? '（或 max-resample-times）' : p.draws > 1 ? '（或 gradient-accumulation-steps、steps-per-generation）' : '') +
    (p.webgpu ? '' : '，或改用 backend webgpu'),
  'schedule.unknown-preset': (p) => `未知的预设 ${p.got}；调度预设：${p.presets.join('、')}`,
  'schedule.policy-constant': () => 'policy 为 latency controller 抽取配置；去掉 latency constant 或 policy',
  'schedule.config-time-controller': () => 'config-time 设置常数模型的 T；controller 模型改用每个配置的 prefill 延迟',
  'dynamic.preset-fixes': (p) => `预设 ${p.preset} 固定了 ranks、per-rank、k 和 reward 抽样；不要设置它们，或改用预设 ${p.none}`,
  'dynamic.step-too-big': (p) =>
    `ranks × per-rank 每个 step 最多 ${p.max} 个样本，得到的是 ${p.ranks} × ${p.perRank} = ${p.ranks * p.perRank}`,
  'dynamic.policy': (p) => `policy 必须是 ${p.policies.join('、')} 之一，得到的是 '${p.got}'`,
  'dynamic.per-rank-k': (p) =>
    `每个 rank 的 batch ${p.perRank} 必须是 k = ${p.k} 的倍数（每个 rank 生成完整的组）；试试 per-rank ${p.lower} 或 ${p.higher}`,
  'dynamic.range': (p) => `range 必须满足 min < max，得到的是 (${p.min}, ${p.max})`,
  'sampler.does-not-use': (p) => `sampler ${p.sampler} 不使用 ${label(p.flag)}：${CORE_ZH[p.reason]({})}；请不要设置它`,
  'ignores.trl-only': () => 'steps-per-generation 是 TRL 的设置（请用 sampler trl）',
  'ignores.loader': () => 'sampler 与训练循环之间的 loader 只为 flow_grpo 的脚本建了模（请用 sampler flow-grpo 或 flow-grpo-lcm）',
  'ignores.dance-batches': () =>
    `DanceGRPO 的一遍就是整个 DataLoader（长度 = 每 rank 的 prompt 数 // train_batch_size）；${label('epochs')}数的是遍数`,
  'ignores.dance-iterations': () => 'DanceGRPO 每个样本只训练一次（没有 num_iterations / 内层 epoch）',
  'ignores.trl-batches': () =>
    `TRL 自行推出它：一个 epoch 是 RepeatSampler 从数据集切出的每个完整生成 batch（请改${label('dataset-size')}）`,
  'ignores.verl-batches': () =>
    `verl 跑完 epoch 的每个完整 batch：len(dataset) // data.train_batch_size 个 step（请改${label('dataset-size')}）`,
  'ignores.verl-loader': () =>
    `verl 的 loader 是 torchdata 的 StatefulDataLoader，没有 prefetch，也不经过 accelerate prepare；它自己的设置是${label('dataloader-num-workers')}（data.dataloader_num_workers）`,
  'ignores.verl-ga': () => 'verl 累积 ppo_mini_batch_size / ppo_micro_batch_size_per_gpu 个 micro-batch（请设置这两个）',
  'sampler.only-readers': (p) =>
    `sampler ${p.sampler} 不使用 ${label(p.flag)}：只有 ${p.readers.join('、')} 读取它；请不要设置它，或改用 sampler ${p.readers[0]}`,
  'sampler.unknown': (p) => `未知的 sampler '${p.got}'；可选：${p.samplers.join('、')}`,
  'verl.seqlen-bad': (p) => `seqlens[${p.index}]=${p.got} 必须是 1 … ${p.max} 之间的整数词元数`,
  'verl.seqlens-short': (p) =>
    `seqlens 给了 ${p.given} 个词元数，但这个 layout 有 ${p.need} 个样本（${p.epochs} 个 epoch × ${p.steps} 个 step × ${p.samples}）；` +
    `请多给一些，或调低 ${label('epochs')} 或 ${label('dataset-size')}`,
  'steps.sampler-not-modelled': (p) =>
    `steps 没有为 sampler ${p.sampler} 的 loss 归一化建模（未转写）；可用的 sampler：trl、flow-grpo、flow-grpo-lcm、contiguous、group-distributed（以及 verl 的）`,
  'steps.unknown-framework': (p) => `未知的 framework '${p.got}'；可选：${p.frameworks.join('、')}`,
  'steps.framework-sampler': (p) =>
    `framework ${p.framework} 不训练 sampler ${p.sampler} 的 layout；适用于 ${p.sampler} 的：${p.fits.join('、') || '无'}`,
  'steps.loss': (p) => `loss ${p.got} 不是 ${p.framework} 的 loss 之一：${p.losses.join('、')}`,
  'steps.micro-not-verl': (p) =>
    `micro-batch 是 verl 的 ppo_micro_batch_size_per_gpu；${p.framework} 的 micro-batch 就是 batch（请不要设置它）`,
  'steps.micro-conflict': (p) =>
    `micro-batch ${p.given} 与 verl 的 ppo_micro_batch_size_per_gpu ${p.micro} 冲突（ppo-micro-batch-size-per-gpu` +
    `${p.leftOut ? ' 未设置：取每 rank 的 mini-batch' : ''}）；用 sampler verl 时只设置 ppo-micro-batch-size-per-gpu`,
  'steps.mini-split': (p) =>
    `verl 把每个 rank 每个 step 的 ${p.block} 个样本分成 micro-batch × GA = ${p.given ?? `${p.block}/${p.ga}`} × ${p.ga} 个样本的 mini-batch，` +
    `它必须整除 ${p.block}` +
    (p.fits.length
      ? `；micro-batch 可用 ${or(p.fits.map(String))}`
      : `；没有能配合 GA ${p.ga} 的 micro-batch：请用整除 ${p.block} 的 gradient-accumulation-steps`),
  'steps.max-length': (p) =>
    `max-completion-length ${p.max} 小于 verl sampler 的 seqlens 中最长的一个（${p.longest}），loss 把它们算作 completion 词元；` +
    `请用 max-completion-length ${p.longest} 或更大，或给出 lengths`,
  'steps.no-tokens': (p) => `${p.framework} 的 loss 是按样本的平均（没有词元）：请不要给 lengths`,
  'lengths.not-json': (p) => `lengths ${p.source}：不是整数的 JSON 数组（也不是用空格分隔的数）`,
  'lengths.not-array': (p) => `lengths ${p.source}：不是 JSON 数组`,
  'lengths.none': (p) => `lengths ${p.source}：没有长度；每个 completion 给一个整数`,
  'lengths.entry': (p) =>
    `lengths ${p.source}：第 ${p.index} 项是 ${p.got}；每个长度必须是 [0, ${p.max}] 之间的整数（max-completion-length ${p.max}；调高它或缩短这一项）`,
  'fused.dynamic': () => 'dynamic-sampling（它的重采样循环在 CPU 上运行）',
  'fused.micro-steps': () => 'micro-step（gradient-accumulation-steps、num-iterations、steps-per-generation）',
  'fused.home-normaliser': (p) => `framework ${p.framework} 的归一化（融合步的 loss 按它自己的 loss 类型给词元加权）`,
  'fused.pairwise-ranks': () => '多于一个 rank 时的 loss pairwise（它的组在 loss 内部跨 rank gather）',
  'fused.pairwise-sampler': (p) =>
    `sampler ${p.sampler} 下的 loss pairwise：它的第 ${p.step} 个 step 没有把每个 prompt 的 ${p.k} 个样本排在一起（融合的 pairwise loss 按连续的组排序）`,
  'run.webgpu-unavailable': (p) => `WebGPU 不可用（\`${p.reason}\`）；改在 CPU 上训练`,
  'run.fused-unsupported': (p) =>
    `融合的 WebGPU step 不运行${(CORE_ZH[p.gap.id] as (q: object) => string)(p.gap.params)}：每个 rank 把每个算子作为单独的 GPU 提交和回读来运行（更慢）`,
  'run.webgpu-failed': (p) => `backend webgpu：\`${p.reason}\`；请改用 backend cpu（或 auto 以便回退）`,
  'seed.not-safe': (p) => `seed 必须是 ±(2^53−1) 以内的整数（或 bigint），得到的是 ${p.got}`,
  'seed.outside-torch': (p) => `seed ${p.seed} 超出了 PyTorch 的范围 [-2^63, 2^64)；seed s 和 s+2^32 给出同一个序列，所以请用 ${p.low32}`,
  ...STEPS_ZH,
};

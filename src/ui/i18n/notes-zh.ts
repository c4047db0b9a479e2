// The samplers' layout notes (src/core/samplers/*: spec.notes, shown in the explorer's statistics)
// in Simplified Chinese: one pattern per note the core writes, its numbers carried over. A note
// without a pattern (a new one in the core) is shown as the marked English original.

/** One pattern from literal parts (each note's pattern is too long for one line). */
const re = (...parts: RegExp[]) => new RegExp(parts.map((x) => x.source).join(''));

const P: [RegExp, (...m: string[]) => string][] = [
  // verl (src/core/samplers/verl.ts)
  [
    re(
      /^One step = data\.train_batch_size=(\d+) prompts × rollout\.n=(\d+) = (\d+) samples; the driver holds them all and hands rank r /,
      /the r-th contiguous chunk of (\d+)\.$/,
    ),
    (p, n, s, c) =>
      `一个 step = data.train_batch_size=${p} 个 prompt × rollout.n=${n} = ${s} 个样本；驱动进程持有全部样本，把第 r 个连续的 ${c} 个交给 rank r。`,
  ],
  [
    new RegExp(
      "^RandomSampler's generator is seeded once \\(data\\.seed=(-?\\d+)\\); (?:with dataloader_num_workers=(\\d+), torchdata's " +
        "StatefulDataLoader builds each epoch's sampler iterator twice, so epoch e uses randperm number 2e\\+1 and the even ones are " +
        'drawn and thrown away \\(0 workers: randperm e\\)\\. |epoch e uses the next randperm\\((\\d+)\\) from it\\. )' +
        'data\\.seed null leaves torch\\.Generator\\(\\) at its default seed (\\d+), so every such run draws the same order\\.$',
    ),
    (seed, workers, d, dflt) =>
      `RandomSampler 的生成器只设一次种子（data.seed=${seed}）；` +
      (workers
        ? `dataloader_num_workers=${workers} 时，torchdata.StatefulDataLoader 每个 epoch 会建两次 sampler 迭代器，` +
          '所以第 e 个 epoch 用第 2e+1 次排列，偶数序号的被抽出后丢弃（0 个 worker 时用第 e 次）。'
        : `第 e 个 epoch 用它的下一个 randperm(${d})。`) +
      `data.seed 未设置时 torch.Generator() 保持默认种子 ${dflt}，所以每次这样的运行抽到的顺序都一样。`,
  ],
  [
    /^drop_last: (\d+) prompt\(s\) at the end of each epoch's permutation are never drawn\.$/,
    (n) => `drop_last：每个 epoch 排列末尾的 ${n} 个 prompt 永远不会被抽到。`,
  ],
  [
    re(
      /^balance_batch=true: _balance_batch reorders each step by token workload \(24576·len \+ len²\), so the (\d+) copies of a prompt /,
      /scatter across ranks by length; advantages still group by uid on the driver, but mini-batches mix prompts\.$/,
    ),
    (k) =>
      `balance_batch=true：_balance_batch 按词元工作量（24576·长度 + 长度²）重排每个 step，所以一个 prompt 的 ${k} 个副本按长度散布到各 rank；` +
      'advantage 仍在驱动进程上按 uid 分组，但 mini-batch 会混合不同的 prompt。',
  ],
  [
    new RegExp(
      "^balance_batch=false: samples stay in generation order, so each prompt's (\\d+) copies are consecutive" +
        '(?: and on one rank\\.|; (\\d+) per rank is not a multiple of k, so some groups straddle two ranks\\.)$',
    ),
    (k, per) =>
      `balance_batch=false：样本保持生成顺序，所以每个 prompt 的 ${k} 个副本是连续的` +
      (per ? `；每个 rank ${per} 个不是 k 的倍数，所以有些组跨两个 rank。` : '，并且在同一个 rank 上。'),
  ],
  [/^Token counts: the (\d+) measured ones given, in generation order\.$/, (n) => `词元数：给定的 ${n} 个实测值，按生成顺序。`],
  [
    /^Token counts are synthetic \(torch\.randint\((\d+), (\d+)\) per sample from a generator seeded with --seed\); give measured ones with --seqlens FILE\.$/,
    (lo, hi) => `词元数是合成的（每个样本一个 torch.randint(${lo}, ${hi})，生成器以 --seed 设种子）；用 --seqlens FILE 给出实测值。`,
  ],
  [
    /^All k copies of a prompt sit on one rank \(repeat_interleave\); advantages are computed locally, the gather only serves logging\.$/,
    () => '一个 prompt 的全部 k 个副本都在同一个 rank 上（repeat_interleave）；advantage 在本地计算，gather 只用于记录日志。',
  ],
  [
    re(
      /^All k copies of a prompt sit on one rank \(repeat_interleave\); advantages are computed per group/,
      / on the rank \(unbiased std \+ 1e-8\), the gather only logs rewards\.$/,
    ),
    () =>
      '一个 prompt 的全部 k 个副本都在同一个 rank 上（repeat_interleave）；advantage 在该 rank 上按组计算（无偏 std + 1e-8），gather 只记录 reward。',
  ],
  [
    re(
      /^DistributedSampler pads the permutation from (\d+) to (\d+) by repeating its first (\d+)/,
      / index\(es\), so those prompts are drawn twice per (epoch|pass)\.$/,
    ),
    (from, to, n, per) =>
      `DistributedSampler 重复排列开头的 ${n} 个索引，把排列从 ${from} 个补齐到 ${to} 个，所以这些 prompt 每${per === 'epoch' ? '个 epoch' : '轮'}被抽到两次。`,
  ],
  [
    re(
      /^Each rank leaves its last (\d+) prompt\(s\) of each epoch unused: the loop takes (\d+) of the/,
      / epoch's (\d+) batches, then calls set_epoch\(epoch \+ 1\)\.$/,
    ),
    (n, taken, all) =>
      `每个 rank 每个 epoch 最后的 ${n} 个 prompt 用不到：循环只取该 epoch ${all} 个 batch 中的 ${taken} 个，然后调用 set_epoch(epoch + 1)。`,
  ],
  [
    /^Each rank drops its last (\d+) prompt\(s\) per epoch \(an incomplete batch, drop_last=True\)\.$/,
    (n) => `每个 rank 每个 epoch 丢弃最后的 ${n} 个 prompt（不完整的 batch，drop_last=True）。`,
  ],
  [
    /^Each rank drops its last (\d+) prompt\(s\) per pass \(drop_last=True\), the same ones every pass\.$/,
    (n) => `每个 rank 每轮丢弃最后的 ${n} 个 prompt（drop_last=True），每轮丢弃的都是同一批。`,
  ],
  [
    re(
      /^DanceGRPO calls sampler\.set_epoch\(0\) once and loops "while True: for batch in loader", so every/,
      / pass over the data repeats pass 0's order: the same prompts meet the same ranks in the same order/,
      / in all (\d+) pass\(es\) \(here an "epoch" is one pass of (\d+) step\(s\)\)\.$/,
    ),
    (passes, steps) =>
      'DanceGRPO 只调用一次 sampler.set_epoch(0)，然后循环 `while True: for batch in loader`，所以每一轮遍历数据都重复第 0 轮的顺序：' +
      `在全部 ${passes} 轮中，同样的 prompt 以同样的顺序落到同样的 rank 上（这里一个“epoch”是 ${steps} 个 step 的一轮）。`,
  ],
  [
    re(
      /^Before batch i of epoch e the training loop calls set_epoch\(e × (\d+) \+ i\), so the generator is/,
      / reseeded with seed \+ that number and every batch is an independent draw: a prompt can come up in/,
      / two batches of one epoch\.$/,
    ),
    (n) =>
      `在 epoch e 的第 i 个 batch 之前，训练循环调用 set_epoch(e × ${n} + i)，于是生成器以“随机种子 + 该数”重新设定种子，` +
      '每个 batch 都是独立抽取：一个 prompt 可能在同一 epoch 的两个 batch 中出现。',
  ],
  [
    re(
      /^The loop calls set_epoch\(e × (\d+) \+ i\) before each batch, but the loader \(num_workers=(\d+), prefetch_factor=(\d+),/,
      / accelerator\.prepare: (yes|no)\) made one iterator before the loop and draws (\d+) index batch\(es\) before the set_epoch/,
      / call meant for them: steps 0–\d+ all receive set_epoch\(0\)'s batch and step t ≥ \d+ the batch set_epoch\(t − \d+\) seeds,/,
      / so PerPromptStatTracker sees groups of 2k or more copies of a prompt\. --num-workers 0 --accelerate-prepare 0 shows the/,
      / idealised loop\.$/,
    ),
    (n, workers, prefetch, prepared, ahead) =>
      `训练循环在每个 batch 之前调用 set_epoch(e × ${n} + i)，但数据加载器（num_workers=${workers}，prefetch_factor=${prefetch}，` +
      `${prepared === 'yes' ? '经过' : '未经过'} accelerator.prepare）在循环开始前就建好了迭代器，并在对应的 set_epoch 调用之前抽取 ${ahead} 个索引 batch：` +
      `step 0–${ahead} 都收到 set_epoch(0) 的 batch，step t ≥ ${ahead} 收到 set_epoch(t − ${ahead}) 生成的 batch，` +
      '所以 PerPromptStatTracker 会看到含 2k 个或更多副本的 prompt 组。`--num-workers 0 --accelerate-prepare 0` 显示理想循环。',
  ],
  [
    re(
      /^As train_sd3\.py \(74db691\) runs it: set_epoch\(epoch\), then a new iterator over the loader \(num_workers=(\d+),/,
      / prefetch_factor=(\d+), accelerator\.prepare: no\) each epoch, so whatever the workers prefetch comes from this epoch's/,
      / pass and is dropped with the iterator: the layout is the sampler's own\.$/,
    ),
    (workers, prefetch) =>
      `按 train_sd3.py（74db691）的运行方式：先 set_epoch(epoch)，再在每个 epoch 为数据加载器（num_workers=${workers}，` +
      `prefetch_factor=${prefetch}，未经过 accelerator.prepare）新建迭代器，所以 worker 预取的都来自本 epoch 的那一轮，并随迭代器一起丢弃：布局就是 sampler 自己的。`,
  ],
  [
    re(
      /^With accelerator\.prepare \(not what the script does\), BatchSamplerShard takes (\d+) of the sampler's batches per/,
      / step and keeps the rank's: rank r gets its slice of window \(step × \d+ \+ r\) mod (\d+), so the ranks of one step hold/,
      / slices of different windows\.$/,
    ),
    (W, N) =>
      `经过 accelerator.prepare（脚本并不这样做）时，BatchSamplerShard 每个 step 从 sampler 取 ${W} 个 batch，只留下本 rank 的那个：` +
      `rank r 得到第 ((step × ${W} + r) 除以 ${N} 的余数) 个窗口中自己的切片，所以同一 step 的各 rank 持有不同窗口的切片。`,
  ],
  [
    re(
      /^With accelerator\.prepare \(not what the script does\), DataLoaderShard calls set_epoch\(0\) on the sampler whenever a/,
      / new iterator starts, so every epoch repeats pass 0\.$/,
    ),
    () =>
      '经过 accelerator.prepare（脚本并不这样做）时，DataLoaderShard 每次新建迭代器都对 sampler 调用 set_epoch(0)，所以每个 epoch 都重复第 0 轮。',
  ],
  [
    re(
      /^One permutation per epoch \(generator seeded seed \+ epoch\): m=(\d+) prompts × k=(\d+) = (\d+)/,
      / samples, cut into (\d+) batches of ranks×batch=(\d+); a group may straddle two batches, but each/,
      / prompt appears k times per epoch\.$/,
    ),
    (m, k, n, batches, size) =>
      `每个 epoch 一个排列（生成器种子为“随机种子 + epoch”）：m=${m} 个 prompt × k=${k} = ${n} 个样本，切成 ${batches} 个 ranks×batch=${size} 的 batch；` +
      '一个组可能跨越两个 batch，但每个 prompt 每个 epoch 恰好出现 k 次。',
  ],
  [
    re(
      /^Every rank receives the same prompt ids in the same order, (\S+) copies each; the ranks' generators/,
      / differ, so the completions differ\. One permutation per epoch \(seed \+ epoch\)\.$/,
    ),
    (n) =>
      `每个 rank 以相同的顺序收到相同的 prompt id，每个 ${n} 个副本；各 rank 的生成器不同，所以 completion 不同。每个 epoch 一个排列（随机种子 + epoch）。`,
  ],
  [
    /^One step here is one generation batch: (\d+) samples = (\d+) prompts × k=(\d+); process p takes the p-th contiguous block of (\d+)\.$/,
    (n, prompts, k, block) =>
      `这里一个 step 就是一个生成 batch：${n} 个样本 = ${prompts} 个 prompt × k=${k}；进程 p 取第 p 个长 ${block} 的连续块。`,
  ],
  [
    re(
      /^RepeatSampler's generator is seeded once per run: epoch e continues the stream of epoch e−1; an/,
      / incomplete last chunk of the permutation is dropped \((\d+) prompt\(s\) per epoch never drawn\)\.$/,
    ),
    (n) =>
      `RepeatSampler 的生成器每次运行只设定一次种子：epoch e 接着 epoch e−1 的随机流继续；排列最后不完整的一段被丢弃（每个 epoch 有 ${n} 个 prompt 从未被抽到）。`,
  ],
  [
    /^num_iterations × steps_per_generation = 1: TRL generates from every batch its dataloader yields, none is reused\.$/,
    () => 'num_iterations × steps_per_generation = 1：TRL 对数据加载器给出的每个 batch 都做生成，没有复用。',
  ],
  [
    re(
      /^TRL's dataloader yields each generation batch (\d+) times \(num_iterations=(\d+) ×/,
      / steps_per_generation=(\d+)\); it generates from the first and only loads the other (\d+) \(the/,
      / buffered completions are reused\), so those repeats are not extra steps here\.$/,
    ),
    (times, it, spg, rest) =>
      `TRL 的数据加载器把每个生成 batch 给出 ${times} 次（num_iterations=${it} × steps_per_generation=${spg}）；它只在第一次做生成，` +
      `其余 ${rest} 次只是加载（复用缓存的 completion），所以这些重复在这里不算额外的 step。`,
  ],
  [
    re(
      /^Each rank's block of (\d+) is used as (\d+) micro-batches of batch=(\d+) \(one per micro-step\);/,
      / every gradient_accumulation_steps=(\d+) micro-steps make one optimizer step \(see the step/,
      / counts\)\.$/,
    ),
    (block, n, batch, acc) =>
      `每个 rank 的 ${block} 个样本被用作 ${n} 个 batch=${batch} 的 micro-batch（每个 micro-step 一个）；` +
      `每 gradient_accumulation_steps=${acc} 个 micro-step 构成一次优化器 step（见 step 计数）。`,
  ],
  [
    /^The per-process block \((\d+)\) is not a multiple of k=(\d+): some groups straddle two ranks\.$/,
    (block, k) => `每个进程的块（${block}）不是 k=${k} 的倍数：有些组跨越两个 rank。`,
  ],
];

/** A layout note in Chinese, or null when no pattern knows it. */
export function layoutNoteZh(note: string): string | null {
  for (const [re, zh] of P) {
    const m = re.exec(note);
    if (m) return zh(...m.slice(1));
  }
  return null;
}

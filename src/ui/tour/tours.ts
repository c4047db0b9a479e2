// The guided tours, one per scenario of docs/scenarios.md (seed-000 … seed-004), as data: each
// step is a caption in English and Simplified Chinese, the view it drives and what it sets there.
// Every word a tour shows lives in this file (the panel's buttons too), so a message catalogue
// can take them over in one place. The engine that plays them is tour-panel.ts.

import { lang } from '../i18n/lang.ts';

export type TourLang = 'en' | 'zh-CN';

/** One text in both languages. */
export interface Words {
  en: string;
  'zh-CN': string;
}

/** The page's language for the tours: the page's language state (src/ui/i18n: `lang=zh-CN` in the URL, and the switch). */
export function tourLang(): TourLang {
  return lang();
}

/** The text of `w` in the page's language. */
export function say(w: Words): string {
  return w[tourLang()];
}

/** The views a step can drive: the explorer, or one of the views `?view=` routes to (views.ts). */
export type TourView = 'explorer' | 'schedule' | 'dynamic' | 'train' | 'steps';

export interface TourStep {
  text: Words;
  view: TourView;
  /**
   * What the step sets, added to what the earlier steps on the same view set (a step on another
   * view starts from a fresh element): for the explorer its URL keys (preset, phase, prompt,
   * regroup, …), for the other views their attributes, named like the CLI flags. '' removes one.
   */
  set?: Record<string, string>;
  /**
   * What the step points at: a CSS selector matched in the view's element or any shadow root
   * inside it. The panel scrolls it into the room above itself and never covers it.
   */
  target: string;
  /** Starts a run of <grpo-train> with the settings so far (the dashboard's Start button). */
  run?: boolean;
}

export interface Tour {
  id: string;
  title: Words;
  steps: TourStep[];
}

export const TOURS: Record<string, Tour> = {
  'seed-000': {
    id: 'seed-000',
    title: { en: 'where the k copies of a prompt go', 'zh-CN': '一个 prompt 的 k 个副本去了哪里' },
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-000', phase: 'sample' },
        text: {
          en:
            "flow_grpo's DistributedKRepeatSampler: 8 ranks × train_batch_size 2 = 16 samples per batch. With k = 4 copies per prompt, " +
            'each batch draws 16 / 4 = 4 prompts and repeats each of them 4 times.',
          'zh-CN':
            'flow_grpo 的 DistributedKRepeatSampler：8 个 rank × train_batch_size 2 = 每个 batch 16 个样本。每个 prompt 有 k = 4 个副本，' +
            '所以每个 batch 抽 16 / 4 = 4 个 prompt，每个重复 4 次。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'scatter' },
        text: {
          en:
            "The 16 samples are scattered over the 8 ranks, 2 each, in the order of the seed's permutation; copies of one prompt land on " +
            'different ranks. The seed document expects set_epoch(epoch × 2 + i) to make every batch a new draw, but the real script ' +
            '(train_sd3.py) reads the sampler through DataLoader(num_workers=1) prepared by accelerate, one iterator made before the loop: ' +
            '3 index batches are drawn before their set_epoch call, so batches 0 and 1 of epoch 0 are the same draw (steps 0–3 all get ' +
            'set_epoch(0)’s batch). That is what a real run of this configuration gets.',
          'zh-CN':
            '16 个样本按该 seed 的随机排列分到 8 个 rank 上，每个 rank 2 个；同一个 prompt 的副本落在不同的 rank 上。seed 文档预期' +
            ' set_epoch(epoch × 2 + i) 让每个 batch 都是新的抽取，但真实脚本（train_sd3.py）通过经过 accelerator.prepare 的 ' +
            'DataLoader(num_workers=1) 读取 sampler，迭代器在循环之前就已建好：有 3 个索引 batch 在对应的 set_epoch 调用之前就被抽取，' +
            '所以 epoch 0 的第 0 个和第 1 个 batch 是同一次抽取（step 0–3 都拿到 set_epoch(0) 的 batch）。这才是这个配置真实运行时得到的结果。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { prompt: '13' },
        text: {
          en:
            'Follow prompt 13: in each batch two of its 4 copies sit on rank 3 (the loader hands out that batch twice, so the epoch holds 8 copies, 4 ' +
            'of them on rank 3). A diagram with one copy per accelerator (GPU or NPU) is only an illustration — ' +
            'a rank can hold anywhere from 0 to min(k, batch) = 2 copies of a prompt. A rank printing the shape of its batch (videos.shape) ' +
            'sees only its own 2 samples, and that is normal.',
          'zh-CN':
            '跟踪 prompt 13：每个 batch 里它的 4 个副本中有两个在 rank 3 上（加载器把这个 batch 发了两次，所以这个 epoch 有 8 个副本，其中 4 个在 rank 3）。' +
            '“每个加速卡（GPU 或 NPU）一个副本”的图只是示意——一个 rank 上每个 batch 可以有 0 到 ' +
            'min(k, batch) = 2 个同一 prompt 的副本。某个 rank 打印自己 batch 的形状（videos.shape）只看到自己的 2 个样本，这是正常的。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'accumulate' },
        text: {
          en: 'Each rank appends its batches and concatenates them: 2 batches × 2 = 4 samples per rank per epoch, still only its own.',
          'zh-CN': '每个 rank 把自己的各个 batch 追加并拼接起来：每个 epoch 每个 rank 2 个 batch × 2 = 4 个样本，仍然只有自己的。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'gather' },
        text: {
          en:
            'accelerator.gather brings the 32 samples of the epoch together in rank-major order. Only now do the copies of each prompt ' +
            'meet: here 4 prompts, each drawn twice (8 copies), where the document expected 8 prompts × 4 copies.',
          'zh-CN':
            'accelerator.gather 按 rank 顺序（rank-major）把这个 epoch 的 32 个样本汇集到一起。直到这时，每个 prompt 的副本才相遇：' +
            '这里是 4 个 prompt，每个被抽到两次（8 个副本），而文档预期的是 8 个 prompt × 4 个副本。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'regroup' },
        text: {
          en:
            "flow_grpo's PerPromptStatTracker regroups the gathered samples by prompt, wherever they were generated: in the real run each " +
            'group holds 8 samples (2k), because the same batch came twice.',
          'zh-CN':
            'flow_grpo 的 PerPromptStatTracker 按 prompt 把汇集后的样本重新分组，不管它们在哪个 rank 上生成：在真实运行中每组有 8 个样本（2k），' +
            '因为同一个 batch 来了两次。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { workers: '0', prepare: '0' },
        text: {
          en:
            'The loop the document assumes — num_workers 0 and no accelerator.prepare, so each batch is drawn after its set_epoch call: ' +
            'the epoch holds 8 different prompts and every group has exactly 4 copies. The “loader workers” and “accelerate prepare” ' +
            'settings switch between the two.',
          'zh-CN':
            '文档所假设的循环——num_workers 为 0，且不经过 accelerator.prepare，于是每个 batch 都在它的 set_epoch 调用之后才抽取：' +
            '这个 epoch 有 8 个不同的 prompt，每组恰好 4 个副本。“DataLoader 的 worker 数”和“accelerator.prepare”两个设置可以在两者之间切换。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'advantages' },
        text: {
          en:
            'Each sample’s advantage subtracts its group’s mean reward, so the copies had to meet first; it divides by the std of all ' +
            'gathered rewards (flow_grpo’s global_std), as the caption says.',
          'zh-CN':
            '每个样本的 advantage 减去它所在组的平均 reward，所以副本必须先汇集到一起；再除以所有汇集样本 reward 的 std（flow_grpo 的 global_std），与说明文字一致。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'slice' },
        text: {
          en:
            'Back to the ranks: rank r takes gathered[4r, 4r + 4), exactly the 4 samples it generated, now with their advantages. ' +
            'Each rank trains on its own samples; the groups existed only in the gathered view.',
          'zh-CN':
            '切回各个 rank：rank r 取 gathered[4r, 4r + 4)，正是它自己生成的 4 个样本，现在带上了 advantage。每个 rank 用自己的样本训练；组只存在于汇集后的视图中。',
        },
      },
    ],
  },
  'seed-001': {
    id: 'seed-001',
    title: { en: 'the expanded batch and how it runs', 'zh-CN': '扩展后的 batch 以及它如何执行' },
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-001', phase: 'sample' },
        text: {
          en:
            'expanded_batch_size = batch_size × group_size: batch 4 × group 5 = 20 configurations (Sample1 → Config1-1 … Config1-5, …). ' +
            'repeat_interleave expands the inputs from (4, seq) to (20, seq).',
          'zh-CN':
            'expanded_batch_size = batch_size × group_size：batch 4 × group 5 = 20 个配置（Sample1 → Config1-1 … Config1-5，以此类推）。' +
            'repeat_interleave 把输入从 (4, seq) 扩展为 (20, seq)。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'scatter' },
        text: {
          en: "The ideal layout: each of the 4 ranks holds its own sample's 5 configurations.",
          'zh-CN': '理想的布局：4 个 rank 各自持有自己那个样本的 5 个配置。',
        },
      },
      {
        view: 'schedule',
        target: 'svg.gantt',
        set: { preset: 'seed-001' },
        text: {
          en:
            'How the 20 configurations execute, one Gantt chart per scheme on one time scale (ranks × time). One configuration takes T; ' +
            "today's loop runs them one at a time with batch 1, all on GPU 0.",
          'zh-CN':
            '20 个配置如何执行：每种方案一张 Gantt 图，时间轴相同（rank × 时间）。一个配置耗时 T；现在的循环以 batch 1 逐个执行，全部在 GPU 0 上。',
        },
      },
      {
        view: 'schedule',
        target: 'table',
        set: { schemes: 'serial-dp,per-rank-serial' },
        text: {
          en:
            'Side by side: serial-dp takes 20T while ranks 1–3 sit idle; each GPU running its own sample (per-rank-serial) takes 5T — ' +
            'a 4× speed-up (20T / 5T), the one the scenario expects.',
          'zh-CN':
            '并排比较：serial-dp 需要 20T，rank 1–3 一直空闲；每张 GPU 执行自己的样本（per-rank-serial）只需 5T——4 倍加速（20T / 5T），正是该场景预期的。',
        },
      },
      {
        view: 'schedule',
        target: 'tr[data-scheme="per-rank-batched"]',
        set: { schemes: '', alpha: '0.5' },
        text: {
          en:
            'All five schemes, with batching that is not free: α = 0.5, so a batch of 5 takes T·(0.5 + 0.5·5) = 3T. ' +
            'per-rank-batched runs each sample in one launch.',
          'zh-CN':
            '五种方案全部显示，并让批处理有代价：α = 0.5，一个 5 个配置的 batch 耗时 T·(0.5 + 0.5·5) = 3T。per-rank-batched 每个样本一次 launch 执行完。',
        },
      },
      {
        view: 'schedule',
        target: 'svg.gantt',
        set: { alpha: '', latency: 'controller' },
        text: {
          en:
            "Configurations are not equally costly: latencies from the controller task (each configuration's prefill latency, drawn " +
            'from the uniform policy, in ms). The bars now differ in length, and so do the makespans and idle fractions.',
          'zh-CN':
            '各个配置的开销并不相同：延迟改用控制器任务给出的值（每个配置的 prefill 延迟，配置从 uniform 策略中抽取）。' +
            '各条块长短不一，各方案的 makespan 和空闲比例也随之改变。',
        },
      },
    ],
  },
  'seed-002': {
    id: 'seed-002',
    title: { en: 'dynamic sampling when 3 resamples are not enough', 'zh-CN': '重采样 3 次仍不够时的动态采样' },
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-002', phase: 'gather' },
        text: {
          en:
            'seed-002: 4 GPUs, each needs local_target = 16 samples, so global_target = 64. ms-swift builds on TRL: contiguous groups, ' +
            'one all-gather of the 64.',
          'zh-CN':
            'seed-002：4 张 GPU，每张需要 local_target = 16 个样本，所以 global_target = 64。ms-swift 基于 TRL：组是连续的，64 个样本经一次 all-gather 汇集。',
        },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { preset: 'seed-002', step: '0' },
        text: {
          en:
            'Dynamic sampling (DAPO-style): a group whose rewards all tie (std = 0) carries no signal and is dropped. Initial batch: 48 of 64 valid. ' +
            'This view uses groups of k = 2, not 4: whole groups are kept or dropped, and only groups of 2 can add exactly the 2 samples of the last resample.',
          'zh-CN':
            '动态采样（DAPO 风格）：reward 全部相同（std = 0）的组没有训练信号，会被丢弃。初始 batch：64 个中 48 个有效。' +
            '这里的组大小是 k = 2 而不是 4：组总是整体保留或丢弃，只有 2 个一组才能让最后一次重采样恰好增加 2 个样本。',
        },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { step: '3' },
        text: {
          en: 'The ranks resample, at most max_resample_times = 3: +8 (56/64), +4 (60/64), +2 (62/64). Still 2 short: Shortage: 2/64.',
          'zh-CN': '各 rank 重新采样，最多 max_resample_times = 3 次：+8（56/64）、+4（60/64）、+2（62/64）。仍差 2 个：Shortage: 2/64。',
        },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { step: '4' },
        text: {
          en:
            'The current slicing of the 62-sample pool: rank r takes [16r, min(16(r+1), 62)), so ranks 0–2 get 16 and rank 3 gets 14. ' +
            'Each cell is coloured by the rank that generated it.',
          'zh-CN':
            '当前对 62 个样本的 pool 的切分：rank r 取 [16r, min(16(r+1), 62))，所以 rank 0–2 各得 16 个，rank 3 只得 14 个。每个格子按生成它的 rank 着色。',
        },
      },
      {
        view: 'dynamic',
        target: 'pre.run',
        set: { step: '5' },
        text: {
          en:
            'The train step on 4 rank Web Workers: the unequal batches break the gather with the shape mismatch a real run prints ' +
            '([16, 1] against [14, 1]).',
          'zh-CN':
            '在 4 个 rank Web Worker 上执行训练步：batch 大小不一致，gather 报出与真实运行相同的 shape mismatch（[16, 1] 对 [14, 1]）。',
        },
      },
      {
        view: 'dynamic',
        target: 'pre.run.success',
        set: { policy: 'fallback' },
        text: {
          en:
            'Fix 1 (recommended): when short, every rank falls back to its original batch — equal sizes, the step trains, ' +
            'but the flat groups are trained on too.',
          'zh-CN': '修复方案 1（推荐）：不足时每个 rank 都退回到原始 batch——大小一致，训练步可以执行，但 std = 0 的组也会参与训练。',
        },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { policy: 'rebalance' },
        text: {
          en:
            'Fix 3: local_target = floor(62 / 4) = 15, and the first 62 mod 4 = 2 ranks take one more: 16, 16, 15, 15. ' +
            'Every valid sample is used; the gather must accept sizes that differ by one.',
          'zh-CN':
            '修复方案 3：local_target = floor(62 / 4) = 15，前 62 mod 4 = 2 个 rank 多取一个：16、16、15、15。' +
            '所有有效样本都被使用；gather 必须能接受相差一个的大小。',
        },
      },
    ],
  },
  'seed-003': {
    id: 'seed-003',
    title: { en: 'training the two-stage controller', 'zh-CN': '训练两阶段控制器' },
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-003', phase: 'sample' },
        text: {
          en:
            'seed-003: batch size 1, group_size = 5. For each input the two-stage controller samples 5 configurations ' +
            '(tier, insertion position, MoE top-K, active blocks), each independently by softmax then multinomial.',
          'zh-CN':
            'seed-003：batch size 1，group_size = 5。对每个输入，两阶段控制器采样 5 个配置（图像档位、插入位置、MoE top-K、' +
            '激活的 block 数），每个都独立地 softmax 后 multinomial 采样。',
        },
      },
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { phase: 'advantages' },
        text: {
          en:
            "One rank holds the whole group, so the 5 rewards are compared at once. The seed's loss: for every pair with " +
            'reward_i > reward_j, −log σ(log π_i − log π_j).',
          'zh-CN':
            '整个组都在一个 rank 上，5 个 reward 可以直接比较。seed 中的 loss：对每一对 reward_i > reward_j，取 −log σ(log π_i − log π_j)。',
        },
      },
      {
        view: 'train',
        target: 'form',
        set: { preset: 'seed-003', steps: '30', backend: 'cpu' },
        text: {
          en:
            "The training dashboard with seed-003's settings: the seed controller (d_model 2048), one rank, 5 configurations per step, " +
            'the pairwise loss; here a short run of 30 steps.',
          'zh-CN':
            '训练面板使用 seed-003 的设置：seed 中的控制器（d_model 2048）、一个 rank、每步 5 个配置、pairwise loss；这里只跑 30 步的短训练。',
        },
      },
      {
        view: 'train',
        target: '#chart-optimum',
        run: true,
        text: {
          en: 'Start: the rank trains in a Web Worker while the page draws reward, % of the optimum, loss, KL, entropy per head, zero-std and clip fractions.',
          'zh-CN':
            '开始：rank 在 Web Worker 中训练，页面实时绘制 reward、达到最优的百分比、loss、KL、各个 head 的熵、zero-std 比例和 clip 比例。',
        },
      },
      {
        view: 'train',
        target: 'table.policy',
        text: {
          en:
            'When the run ends, the learned policy per latency budget is set against the optimum. The standard GRPO losses are one ' +
            'setting away: change loss and start again.',
          'zh-CN': '训练结束后，按延迟预算列出学到的策略并与最优配置对比。标准的 GRPO loss 只需改一个设置：修改 loss 后重新开始。',
        },
      },
    ],
  },
  'seed-004': {
    id: 'seed-004',
    title: { en: 'tensors from different devices after a cross-rank pool', 'zh-CN': '跨 rank 汇集后来自不同设备的张量' },
    steps: [
      {
        view: 'explorer',
        target: 'grpo-layout-canvas',
        set: { preset: 'seed-004', phase: 'slice' },
        text: {
          en: 'seed-004: 4 ranks × 16 samples, a global pool of 64 sliced back to the ranks as [0:16] [16:32] [32:48] [48:64].',
          'zh-CN': 'seed-004：4 个 rank × 16 个样本，64 个样本的全局 pool 再按 [0:16] [16:32] [32:48] [48:64] 切回给各个 rank。',
        },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { preset: 'seed-004', step: '0', 'device-fix': 'off' },
        text: {
          en:
            'Dynamic sampling across ranks: every rank fetches, generates and scores together. Initial batch: 56 of 64 valid. ' +
            'This view uses groups of k = 8, not 4, so each rank’s slice of 16 holds the 2 groups the scenario describes.',
          'zh-CN':
            '跨 rank 的动态采样：所有 rank 一起取数据、生成、打分。初始 batch：64 个中 56 个有效。' +
            '这里的组大小是 k = 8 而不是 4，这样每个 rank 的 16 个样本正好是场景中描述的 2 个组。',
        },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { step: '1' },
        text: {
          en: 'One resample adds 8, all generated on rank 1: global_pool = 64/64. The synchronisation works.',
          'zh-CN': '一次重采样增加 8 个，全部在 rank 1 上生成：global_pool = 64/64。同步本身没有问题。',
        },
      },
      {
        view: 'dynamic',
        target: 'svg.dynamic-figure',
        set: { step: '2' },
        text: {
          en:
            "gather_object collected every rank's samples into one pool, each tensor still on its source device: " +
            "rank 2's slice [32:48] holds 8 samples produced on rank 3 (cells coloured by origin rank).",
          'zh-CN':
            'gather_object 把所有 rank 的样本收集进同一个 pool，每个张量仍在它原来的设备上：rank 2 的切片 [32:48] 里有 8 个在 rank 3 上生成的样本（格子按来源 rank 着色）。',
        },
      },
      {
        view: 'dynamic',
        target: 'pre.run.failure',
        set: { step: '3' },
        text: {
          en:
            'torch.stack([s["rewards_per_func"] for s in my_samples]) on the rank workers: the device error a real run gives ' +
            '("Expected all tensors to be on the same device…").',
          'zh-CN':
            '在 rank worker 上执行 torch.stack([s["rewards_per_func"] for s in my_samples])：得到与真实运行相同的设备错误（“Expected all tensors to be on the same device…”）。',
        },
      },
      {
        view: 'dynamic',
        target: 'pre.run.success',
        set: { 'device-fix': 'on' },
        text: {
          en:
            'The fix (the fourth in the scenario’s history of fixes): move every tensor to the current rank’s device before stacking ' +
            '(.to(device), a no-op when already there). Every rank ' +
            'stacks [16, 1] and the step trains.',
          'zh-CN':
            '修复（该场景修复历史中的第四个）：stack 之前把每个张量移到当前 rank 的设备上（.to(device)，已在该设备上时不做任何事）。每个 rank 都得到 [16, 1]，训练步顺利执行。',
        },
      },
    ],
  },
  'trl-5619': {
    id: 'trl-5619',
    title: { en: 'TRL #5619: dapo’s update size and steps_per_generation', 'zh-CN': 'TRL #5619：dapo 的更新大小与 steps_per_generation' },
    steps: [
      {
        view: 'steps',
        target: '.figure',
        set: { sampler: 'trl', ranks: '2', batch: '2', k: '2', dataset: '16', ga: '2', spg: '4', framework: 'trl-1.9.0', loss: 'dapo' },
        text: {
          en:
            'TRL 1.9.0, loss dapo: 2 ranks × 2 completions per micro-step, gradient_accumulation_steps 2, so every optimizer step ' +
            'trains on 8 completions. With steps_per_generation 4, a generation batch spans two optimizer steps, and dapo divides every ' +
            'micro-step by the tokens of the whole generation batch: each update is about half the global token mean’s (GA / spg = 0.5).',
          'zh-CN':
            'TRL 1.9.0，loss dapo：2 个 rank × 每个 micro-step 2 个 completion，gradient_accumulation_steps 2，每个 optimizer step ' +
            '训练 8 个 completion。steps_per_generation 4 时一个 generation batch 跨两个 optimizer step，而 dapo 用整个 generation batch ' +
            '的 token 数去除每个 micro-step：每次更新约为全局 token 均值的一半（GA / spg = 0.5）。',
        },
      },
      {
        view: 'steps',
        target: '.figure',
        set: { spg: '2' },
        text: {
          en:
            'The same 8 completions per optimizer step, now with steps_per_generation 2 = GA: the generation batch is the accumulation ' +
            'window, and every update has exactly the token mean’s size (× 1). Same global batch, a different learning rate: TRL #5619.',
          'zh-CN':
            '每个 optimizer step 同样是 8 个 completion，但 steps_per_generation 2 = GA：generation batch 就是累积窗口，每次更新正好是 ' +
            'token 均值的大小（× 1）。全局 batch 相同，学习率却不同：这就是 TRL #5619。',
        },
      },
      {
        view: 'steps',
        target: '.figure',
        set: { spg: '4', framework: 'trl-1.13.0' },
        text: {
          en:
            'TRL 1.13.0 (PR #6024) rescales the normaliser by GA / steps_per_generation: with steps_per_generation 4 the updates are back ' +
            'at the token mean’s size, within a few per cent (each half of the generation batch has its own token count; the fix assumes ' +
            'they are equal).',
          'zh-CN':
            'TRL 1.13.0（PR #6024）把归一化因子乘以 GA / steps_per_generation：steps_per_generation 4 时更新回到 token 均值的大小，' +
            '相差几个百分点以内（generation batch 的两半 token 数各不相同，修复假设它们相等）。',
        },
      },
      {
        view: 'steps',
        target: '.figure',
        set: { spg: '2' },
        text: {
          en:
            'And with steps_per_generation 2 nothing changed: × 1 as before. Hatched blocks (steps_per_generation 4) are micro-steps ' +
            'trained one optimizer step after their completions were generated: off-policy, whatever the loss.',
          'zh-CN':
            'steps_per_generation 2 时没有变化：仍是 × 1。斜线方块（steps_per_generation 4 时）是在 completion 生成之后又过了一个 ' +
            'optimizer step 才训练的 micro-step：无论哪种 loss，它们都是 off-policy。',
        },
      },
    ],
  },
};

export const tourNames = Object.keys(TOURS);

/** The panel's own words. */
export const TOUR_UI = {
  tour: { en: 'Tour', 'zh-CN': '导览' },
  tours: { en: 'tours', 'zh-CN': '导览' },
  stepOf: (i: number, n: number): Words => ({ en: `step ${i} of ${n}`, 'zh-CN': `第 ${i} 步，共 ${n} 步` }),
  back: { en: '◀ back', 'zh-CN': '◀ 上一步' },
  next: { en: 'next ▶', 'zh-CN': '下一步 ▶' },
  close: { en: 'close the tour (Esc)', 'zh-CN': '关闭导览（Esc）' },
  end: { en: 'End of the tour.', 'zh-CN': '导览结束。' },
  keys: { en: '← → step, Esc closes', 'zh-CN': '← → 切换步骤，Esc 关闭' },
  fold: { en: 'fold the tour to its header', 'zh-CN': '把导览收起到标题栏' },
  unfold: { en: "show the step's text", 'zh-CN': '显示这一步的说明' },
  unknown: (name: string): Words => ({
    en: `There is no tour “${name}”; the tours are ${tourNames.join(', ')}.`,
    'zh-CN': `没有名为“${name}”的导览；可用的导览：${tourNames.join('、')}。`,
  }),
} as const;

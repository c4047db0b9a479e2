// What `steps` finds (src/core/messages/steps.ts), in Simplified Chinese: one template per finding
// and note over the same facts, so both languages quote the same numbers. The frameworks' pins and
// how each was checked are translated by framework name (code, paths and versions stay as written).
import type { Params } from '../../core/messages/index.ts';
import type { FrameworkName } from '../../core/steps/types.ts';
import {
  type LengthsSource,
  type NormaliserKind,
  type NormaliserTerms,
  type OffPolicyParams,
  type STEPS_EN,
  type VerlScale,
  stepNumber,
} from '../../core/messages/steps.ts';

const n = stepNumber;

/** How each normaliser makes tokens weigh (the end of the per-completion finding), by the formula the framework uses. */
const LOSS_CAUSE_ZH: Record<NormaliserKind, string> = {
  'completion-mean':
    '`grpo` 先在每个 completion 自己的词元上取平均，所以一个词元的权重是 1/(其 completion 的长度 × B × GA × W)：短 completion 的词元比长的权重更大。',
  'micro-tokens':
    '`bnpo` 除以每个 rank 自己 micro-batch 的词元数，所以词元较少的 micro-batch 中的词元权重更大：' +
    '哪些 completion 同在一个 micro-batch（跨 rank 和 micro-step 的顺序）会改变更新。',
  'constant-length': '`dr_grpo` 除以常数 `B × max_completion_length × GA`，而不是实际出现的词元数。',
  'generation-rescaled': '`dapo` 除以一个生成 batch 或窗口的词元数；当两者跨度不同时，它与本优化步自己的词元数不同。',
  generation: '`dapo` 除以一个生成 batch 或窗口的词元数；当两者跨度不同时，它与本优化步自己的词元数不同。',
  'window-twice': '`dapo` 除以一个生成 batch 或窗口的词元数；当两者跨度不同时，它与本优化步自己的词元数不同。',
  window: '`dapo` 除以一个生成 batch 或窗口的词元数；当两者跨度不同时，它与本优化步自己的词元数不同。',
  'verl-tokens':
    'verl 旧版 worker 上的 `token-mean` 除以它所见 micro-batch（一个 rank 的 micro-batch）的词元数：词元较少的 micro-batch 中的词元权重更大。',
  'verl-sequences': '`seq-mean-token-sum` 对每个序列的词元求和，再在序列间取平均：无论总数多少，每个序列的每个词元权重相同。',
  'verl-sequence-mean': '`seq-mean-token-mean` 先在每个序列自己的词元上取平均：短序列的词元权重更大。',
  'verl-length': '`seq-mean-token-sum-norm` 除以一个常数长度，而不是实际出现的词元数。',
  'engine-tokens':
    'verl 的 `engine` worker 上的 `token-mean` 除以 mini-batch 在各 rank 间 all-reduce 后的词元数：' +
    'mini-batch 中每个词元的权重都相同，无论它落在哪个 micro-batch 或 rank。',
  'engine-sequences': '`seq-mean-token-sum` 对每个序列的词元求和，再在序列间取平均：无论总数多少，每个序列的每个词元权重相同。',
  'engine-sequence-mean': '`seq-mean-token-mean` 先在每个序列自己的词元上取平均：短序列的词元权重更大。',
  'engine-length': '`seq-mean-token-sum-norm` 除以一个常数长度，而不是实际出现的词元数。',
  'sample-mean': '扩散模型的 loss 是每个训练 batch 上的平均，所以每个样本的权重是 1/(B × GA × W)。',
  'dance-sample-mean': 'DanceGRPO 对每个单样本 micro-batch 求平均，并自己除以 GA × train_timesteps：每个样本的权重是 1/(GA × W)。',
};

const SWIFT_CHECKED = '转写（此处未安装 ms-swift）；micro-batch 的切分假定与 TRL 相同（它的 GRPOTrainer 继承自 TRL 的）';
const VERL_CHECKED = '在检出的仓库中执行 agg_loss（test/fixtures/golden-steps-verl.json）；update_policy 的缩放：转写';

/** Each framework version's pin and check (src/core/steps/frameworks.ts), by name: every version (FrameworkName) has its words. */
const FRAMEWORK_ZH: Record<FrameworkName, { pinnedTo: string; checkedBy: string }> = {
  'trl-1.13.0': {
    pinnedTo:
      'trl 1.13.0，trl/trainer/grpo_trainer.py 的 GRPOTrainer._compute_loss（配合 `transformers` 5.18.0 的 `Trainer`、`accelerate` 1.15.0）',
    checkedBy: '在 `torchrun` 下运行真实的 GRPOTrainer（test/fixtures/golden-steps-trl.json）',
  },
  'trl-1.9.0': {
    pinnedTo:
      'trl 1.9.0（标签 v1.9.0，35def3e；`main` 分支在 f2cd577 仍是同样的代码），trl/trainer/grpo_trainer.py 的 _compute_loss：`dapo` 只除以 ' +
      'num_items_in_batch / num_processes，没有 PR #6024（在 1.13.0 中）加入的按 GA / steps_per_generation 的重新缩放',
    checkedBy: 'grpo/bnpo/dr_grpo：v1.9.0 的代码与测试数据所运行的 1.13.0 相同；`dapo`：v1.9.0 的转写（此处未安装，未运行）',
  },
  'trl-0.18.2': {
    pinnedTo:
      'trl 0.18.2（标签 v0.18.2），trl/trainer/grpo_trainer.py 的 _compute_loss：`grpo`、`bnpo`（它的默认值）和 `dr_grpo`；GRPOConfig.__post_init__ ' +
      '读取批量设置（src/core/frameworks/trl/v018.ts）',
    checkedBy:
      '批量设置：从 v0.18.2 执行 GRPOConfig.__post_init__（test/fixtures/golden-trl-wrappers.json）；归一化：转写（本地包索引中没有 trl 0.18.2，未运行）',
  },
  'unsloth-015bdef': {
    pinnedTo:
      'unslothai/unsloth 015bdef，运行于 trl 0.18.2–0.24.0：unsloth/models/rl.py 设 `loss_type=bnpo`、`beta=0.001`，并可能改写 ' +
      'per_device_train_batch_size（src/core/frameworks/unsloth/trl-reading.ts）；归一化用 TRL 的 `grpo`、`bnpo` 和 `dr_grpo`',
    checkedBy:
      '批量设置：从 015bdef 执行 `Unsloth` 的检查（test/fixtures/golden-trl-wrappers.json）；归一化：假定与 TRL 相同（`Unsloth` 用 unsloth_zoo 的 ' +
      'grpo_accumulated_loss 替换了 loss，该代码未读）',
  },
  'ms-swift-3602360': {
    pinnedTo:
      'modelscope/ms-swift 3602360（trl>=0.26,<1.0）：默认 `loss_type=grpo`、`beta=0.04`（swift/arguments/rlhf_args.py）；批量设置和序列并行 sampler 见 ' +
      'src/core/frameworks/ms-swift/trl-reading.ts；`grpo`、`bnpo`、`dr_grpo` 的归一化与 TRL 相同',
    checkedBy:
      '批量设置：从 3602360 执行 _init_generation_batch_params（test/fixtures/golden-trl-wrappers.json）；归一化：转写（此处未安装 ms-swift）',
  },
  'ms-swift-efd0a54': {
    pinnedTo:
      'ms-swift 在 efd0a54，swift/rlhf_trainers/grpo_trainer.py：dapo/cispo/fipo 除以 num_items_in_batch（累积窗口，所有进程）/ num_processes，' +
      '而 `transformers` 的 Trainer.training_step 又把每个 loss 除以 current_gradient_accumulation_steps',
    checkedBy: SWIFT_CHECKED,
  },
  'ms-swift-pr10116': {
    pinnedTo:
      '带 PR #10116（已合并）的 ms-swift：dapo/cispo/fipo 把按窗口归一化的 loss 乘以 current_gradient_accumulation_steps，于是 `Trainer` 的除法被抵消',
    checkedBy: SWIFT_CHECKED,
  },
  'verl-b178a3c': {
    pinnedTo:
      'verl 在 b178a3c，默认 worker（`use_legacy_worker_impl: auto`）：workers/actor/dp_actor.py 的 update_policy 在每个 micro-batch 上调用 ' +
      'core_algos.agg_loss，不带 global_batch_info，再乘以 1 / gradient_accumulation（开启 use_dynamic_bsz 时乘以该 micro-batch 的样本数 / ppo_mini_batch_size）',
    checkedBy: VERL_CHECKED,
  },
  'verl-b178a3c-engine': {
    pinnedTo:
      'verl 在 b178a3c，`use_legacy_worker_impl: disable`：workers/utils/losses.py 的 ppo_loss 把 global_batch_info（每个 mini-batch 在数据并行组上 ' +
      'all-reduce 的 batch_num_tokens、global_batch_size、dp_size）传给 core_algos.agg_loss；没有 1/GA',
    checkedBy: VERL_CHECKED,
  },
  'flow_grpo-ac4c86e': {
    pinnedTo:
      'flow_grpo 在 ac4c86e，scripts/train_sd3.py：policy_loss = 每个时间步上训练 batch 的平均，accelerator.accumulate 的 ' +
      'gradient_accumulation_steps = train.gradient_accumulation_steps × num_train_timesteps',
    checkedBy: '转写（扩散模型的运行在这里放不下）；每个样本一个“词元”：时间步相互抵消',
  },
  'flow_grpo-sd3-fast-74db691': {
    pinnedTo:
      'flow_grpo 在 74db691，scripts/train_sd3_fast.py：每个 `timestep` 的 policy_loss 是训练 batch 上的均值，accelerator.accumulate 的 ' +
      'gradient_accumulation_steps = train.gradient_accumulation_steps × num_train_timesteps；它的布局：每次 set_epoch 之后新建迭代器，' +
      '不经过 `prepare`（src/core/frameworks/flow-grpo/fast.ts）',
    checkedBy:
      '转写（读取公开存储的文件，没有检出仓库；扩散模型的运行放不进这里）；脚本在重新分批前丢掉 advantage 全为零的样本，这一点未建模',
  },
  'dance-grpo-22b85ef': {
    pinnedTo:
      'DanceGRPO 在 22b85ef，fastvideo/train_grpo_flux.py 的 train_one_step：每个样本自成一个 micro-batch；在它的 train_timesteps 个时间步上 ' +
      'loss = micro-batch 上的平均 / (gradient_accumulation_steps × train_timesteps)，每 gradient_accumulation_steps 个样本 optimizer.step 一次，' +
      '下一步的 optimizer.zero_grad 丢弃不足的最后一个窗口',
    checkedBy:
      '转写（读自存储的公开文件，此处没有检出的仓库；扩散模型的运行在这里放不下）：test/fixtures/golden-steps-dance-grpo.json；每个样本一个“词元”：时间步相互抵消',
  },
};

/** A framework version's own words in Chinese. */
const framework = (name: FrameworkName, key: 'pinnedTo' | 'checkedBy') => FRAMEWORK_ZH[name][key];

function lengthsZh(l: LengthsSource): string {
  switch (l.kind) {
    case 'diffusion':
      return '每个样本一个单位（扩散模型的 loss 是每个时间步上按样本的平均；时间步相互抵消）';
    case 'given':
      return (
        `${l.source}：${l.count} 个长度，按 completion 顺序使用${l.repeated ? '并循环重复' : ''}` +
        (l.verl ? '（布局的 _balance_batch 用的是 seqlens；verl 按 prompt + response 词元平衡）' : '')
      );
    case 'seqlens':
      return (
        `verl sampler 的 seqlens（${l.measured ? '实测值，来自 seqlens' : '合成值，带种子'}），_balance_batch 按它们平衡各 rank，` +
        '按分发顺序（verl 按 prompt + response 词元平衡；只算 response 词元请给出 lengths）'
      );
    case 'seeded':
      return `由 MT19937（种子 ${l.seed}）按种子均匀生成，取值范围 [${l.low}, ${l.high}]`;
  }
}

/** A normaliser's formula in Chinese: words in Chinese, the frameworks' names for their numbers kept as code. */
/** verl 的 loss_scale_factor：1/GA，或 use_dynamic_bsz 下 micro-batch 的样本数 / ppo_mini_batch_size。 */
function verlScaleZh(t: VerlScale): string {
  return t.dynamic ? `样本数 ${t.dynamic.samples} / ppo_mini_batch_size ${t.dynamic.mini}` : `1/GA ${t.ga}`;
}

function normaliserZh(t: NormaliserTerms): string {
  switch (t.kind) {
    case 'completion-mean':
      return `每个 completion 的词元均值 / (B ${t.B} × GA ${t.ga})`;
    case 'micro-tokens':
      return `Σ 词元 / (micro-batch 词元数 ${t.tokens} × GA ${t.ga})`;
    case 'constant-length':
      return `Σ 词元 / (B ${t.B} × max_completion_length ${t.maxLength} × GA ${t.ga})`;
    case 'generation-rescaled':
      return `Σ 词元 / (N_gen ${t.generationTokens} / W ${t.ranks} × GA ${t.ga} / steps_per_generation ${t.spg})`;
    case 'generation':
      return `Σ 词元 / (N_gen ${t.generationTokens} / W ${t.ranks})`;
    case 'window-twice':
      return `Σ 词元 / (N_window ${t.windowTokens} / W ${t.ranks}) / GA ${t.ga}（Trainer.training_step 又除了一次）`;
    case 'window':
      return `Σ 词元 / (N_window ${t.windowTokens} / W ${t.ranks})`;
    case 'verl-tokens':
      return `Σ 词元 / micro-batch 词元数 ${t.tokens} × ${verlScaleZh(t)}`;
    case 'verl-sequences':
      return `Σ 词元 / micro-batch 序列数 ${t.B} × ${verlScaleZh(t)}`;
    case 'verl-sequence-mean':
      return `每个序列的词元均值 / 序列数 ${t.B} × ${verlScaleZh(t)}`;
    case 'verl-length':
      return `Σ 词元 / 响应长度 ${t.maxLength} × ${verlScaleZh(t)}`;
    case 'engine-tokens':
      return `Σ 词元 / batch_num_tokens ${t.tokens} × dp ${t.dp}`;
    case 'engine-sequences':
      return `Σ 词元 / global_batch_size ${t.sequences} × dp ${t.dp}`;
    case 'engine-sequence-mean':
      return `每个序列的词元均值 / global_batch_size ${t.sequences} × dp ${t.dp}`;
    case 'engine-length':
      return `Σ 词元 / loss_scale_factor ${t.maxLength}`;
    case 'sample-mean':
      return `batch ${t.B} 上的平均 × 1/GA ${t.ga}（accelerate 在每个时间步上除以 GA × 时间步数）`;
    case 'dance-sample-mean':
      return `micro-batch ${t.B} 上的平均 / (GA ${t.ga} × train_timesteps)，在每个时间步上`;
  }
}

/** Why TRL trains off-policy in a run, in Chinese: each cause that holds. */
function trlOffPolicyCausesZh(p: { numIterations: number; spg: number; ga: number }): string[] {
  const causes: string[] = [];
  if (p.numIterations > 1) causes.push(` num_iterations ${p.numIterations} 让每个生成 batch 训练 ${p.numIterations} 遍`);
  if (p.spg > p.ga) causes.push(`一个生成 batch 跨越 steps_per_generation ${p.spg} 个 micro-step，多于一个 GA ${p.ga} 的累积窗口`);
  return causes.length ? causes : ['一个生成 batch 在一次优化步之后才被训练'];
}

/** The off-policy finding's first sentences, before the cause its framework's schedule names. */
const offPolicyHeadZh = (p: OffPolicyParams) =>
  `Off-policy：${p.total} 个 micro-step 中有 ${p.off} 个用较旧的策略生成的 completion 训练（至多落后 ${p.lag} 个优化步；` +
  `第一个：micro-step ${p.microStep}，由策略 ${p.policy} 生成，在策略 ${p.train} 上训练）。此时比率 π/π_old 不再是 1，clip 可能起作用`;

export const STEPS_ZH: { [K in keyof typeof STEPS_EN]: (p: Params<K>) => string } = {
  'steps.update-size': (p) => {
    const cause =
      p.cause === 'trl-1.9.0-dapo'
        ? `它把每个 micro-step 除以生成 batch 的词元数（N_gen / W），而累积的是 ${p.ga} 个 micro-step、一个生成 batch 跨越 ` +
          `steps_per_generation = ${p.spg} 个 step：更新约被缩放为 \`GA / spg\` = ${n(p.ga / p.spg)} 倍（TRL #5619；PR #6024 加入了 1.13.0 中的重新缩放）。`
        : p.cause === 'ms-swift-dapo'
          ? '它除以窗口的词元数，而 `transformers` 的 `Trainer` 又除以 current_gradient_accumulation_steps，所以更新是词元均值的 1/GA' +
            '（ms-swift #10117，由 PR #10116 修复）。'
          : p.cause === 'constant-length'
            ? `分母中的常数长度使更新与实际出现的词元数成正比（平均长度 / ${p.maxLength}）。`
            : p.cause === 'token-sum'
              ? '对词元求和再除以序列数，使更新随 completion 的长度增长。'
              : '';
    return (
      `更新大小：在 ${p.framework} \`${p.loss}\` 下，优化步的 Σ 权重 × 词元数为 ` +
      `${p.high === null ? n(p.low) : `${n(p.low)} 到 ${n(p.high)}`}，而全局词元均值在该 step 上给出 1，` +
      `所以有效学习率乘以${p.high === null ? '这个因子' : '这些因子'}。${cause}`
    );
  },
  'steps.per-completion': (p) =>
    `每个 completion：一个 completion 的词元权重是全局词元均值权重的 ${n(p.low)} 到 ${n(p.high)} 倍（相差 ${n(p.high / p.low)} 倍；例如 ` +
    `rank ${p.heaviest.rank} 上有 ${p.heaviest.tokens} 个词元的 completion ${p.heaviest.completion}，对比 rank ${p.lightest.rank} 上有 ` +
    `${p.lightest.tokens} 个词元的 completion ${p.lightest.completion}）。${LOSS_CAUSE_ZH[p.normaliser]}`,
  'steps.per-completion-same': (p) =>
    `每个 completion：一个 step 中每个词元的权重都相同（全局词元均值权重的 ${n(p.ratio)} 倍）。${LOSS_CAUSE_ZH[p.normaliser]}`,
  'steps.short-windows': (p) =>
    `短窗口：${p.count} 个优化步（${p.windows
      .map((s) => `step ${s.index}：${p.ga} 个中的 ${s.microSteps} 个 micro-step，更新 ${n(s.updateScale)}`)
      .join('；')}）在 epoch 末尾累积的 micro-step 少于 gradient_accumulation_steps，仍然让优化器走一步。`,
  'steps.off-policy.trl': (p) => `${offPolicyHeadZh(p)}（这里${trlOffPolicyCausesZh(p).join('，并且')}：TRL #3662）。`,
  'steps.off-policy.flow-grpo': (p) =>
    `${offPolicyHeadZh(p)}（内层 epoch 数 ${p.numIterations}，或一个 epoch 被切成多个优化步：flow_grpo #138）。`,
  'steps.off-policy.dance-grpo': (p) =>
    `${offPolicyHeadZh(p)}（DanceGRPO 在一个训练步内每 gradient_accumulation_steps ${p.ga} 个样本走一次优化步，` +
    '所以该步后面的样本训练的是采样之后已经更新过的策略）。',
  'steps.off-policy.verl': (p) => `${offPolicyHeadZh(p)}（ppo_epochs ${p.numIterations}，或每个 step 有多个 mini-batch）。`,
  'steps.on-policy': () => 'On-policy：每个 micro-step 都用它所更新的策略生成的 completion 训练（每个词元上的比率都是 1）。',
  'steps.never-applied.flow-grpo': (p) =>
    `从未应用：最后 ${p.microSteps} 个 micro-step 累积了梯度，但运行在达到 gradient_accumulation_steps ${p.ga} 之前就结束了，` +
    '所以优化器从未在它们上走一步（`accelerate` 的计数器跨 epoch 延续）。',
  'steps.never-applied.dance-grpo': (p) =>
    `从未应用：每个训练步最后 ${p.microSteps} 个样本（不足 gradient_accumulation_steps ${p.ga}）累积的梯度被下一次 ` +
    'train_one_step 的 optimizer.zero_grad() 丢弃，优化器从未在它们上走一步。',
  'steps.normaliser': (p) => normaliserZh(p),
  'steps.pinned': (p) => framework(p.name, 'pinnedTo'),
  'steps.note.framework': (p) => `框架：${p.name}，依据 ${framework(p.name, 'pinnedTo')}。核对方式：${framework(p.name, 'checkedBy')}。`,
  'steps.note.lengths': (p) => `长度：${lengthsZh(p)}。`,
  'steps.note.shuffle.trl': () =>
    'TRL 在把每个 rank 的生成 batch 切成 micro-batch 之前打乱它（shuffle_sequence_dict：在全局生成器上调用 torch.randperm，' +
    '其状态取决于模型和采样）；这次抽取无法从种子复现，所以各行保持块内的顺序。只有 `bnpo` 的权重依赖于它。',
  'steps.note.shuffle.flow-grpo': () =>
    'flow_grpo 在每个内层 epoch 重新打乱每个 rank 这一 epoch 的样本（在设备生成器上调用 torch.randperm）；各行保持块内的顺序。',
  'steps.note.shuffle.dance-grpo': () =>
    'DanceGRPO 按顺序训练每个 rank 的样本，每个 micro-step 一个（train_one_step 只打乱每个样本的时间步）。',
  'steps.note.shuffle.verl': () => 'verl 按顺序切分每个 rank 的块（update_policy：data.split，不打乱）。',
};

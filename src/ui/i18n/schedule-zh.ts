// The schedule view's headline, captions and conclusion in Simplified Chinese: templates over the
// same facts the core's English is built from (src/core/schedule/explain.ts: headlineFacts,
// captionFacts, conclusionFacts), so both languages quote the same numbers.
import {
  type CaptionFacts,
  type ConclusionFacts,
  formatNumber,
  formatTime,
  type HeadlineFacts,
  times,
} from '../../core/schedule/explain.ts';

/** A policy named in Chinese: the uniform one in words, a trained run by its file name. */
function policyName(name: string): string {
  return name === 'uniform' ? '均匀策略' : `策略 ${name}`;
}

export function headlineZh(f: HeadlineFacts): string {
  const l = f.latency;
  const latency =
    l.kind === 'constant'
      ? `每个配置单独运行耗时 ${formatTime(l.t, f.unit)}`
      : `配置的预填充延迟取自${policyName(l.policy)}（随机种子 ${l.seed}），单独运行耗时 ${formatTime(l.fastest, 'ms')} 到 ${formatTime(l.slowest, 'ms')}`;
  const cap = f.maxBatch === null ? 'batch 大小不设上限' : `每次 launch 至多 ${f.maxBatch} 个配置`;
  return (
    `扩展后的 batch = batch ${f.batch} × 组大小 ${f.k} = ${f.n} 个配置，分布在 ${f.ranks} 个 rank 上；${latency}；` +
    `一次 launch 运行 b 个配置耗时 T·(α + (1−α)·b)，α = ${formatNumber(f.alpha)}，${cap}；全部逐个运行：${formatTime(f.work, f.unit)}`
  );
}

export function captionZh(f: CaptionFacts): string {
  const n = f.n;
  const u = (x: number) => formatTime(x, f.unit);
  const speed = `${u(f.makespan)}，相对 serial-dp 加速 ${times(f.speedup)}`;
  const idleNote = f.idleRanks > 0 ? `；${f.idleRanks} 个 rank 分不到样本而空闲（batch ${f.batch} < ${f.ranks} 个 rank）` : '';
  switch (f.scheme) {
    case 'serial-dp':
      return (
        `当前代码：DataParallel 本应把一个 batch 拆分到各 GPU 上，但循环以 batch 1 调用模型，所以全部 ${n} 个配置` +
        `在 rank 0 上一个接一个地运行：${u(f.makespan)}` +
        (f.ranks > 1 ? `，而 ${f.ranks === 2 ? 'rank 1' : `rank 1–${f.ranks - 1}`} 整个 step 都处于空闲。` : '。')
      );
    case 'per-rank-serial':
      return (
        `DDP：样本 s 在 rank s % ${f.ranks} 上运行，每次前向传播一个配置；最忙的 rank 运行其中 ${f.busiest} 个：` +
        `${speed}，加速全部来自各 rank 并行运行${idleNote}。`
      );
    case 'per-rank-batched': {
      const k = f.batchOf;
      const saving =
        f.alpha === 0
          ? `在 α = 0 时，${k} 个配置的一批耗时 ${k}·T，所以合批毫无节省，加速只来自多个 rank` +
            `（若 α > 0，耗时将为 (${k} − ${k - 1}α)·T，少 ${k - 1}α·T）`
          : `在 α = ${formatNumber(f.alpha)} 时，${k} 个配置的一批耗时 T·(${formatNumber(f.alpha)} + ${formatNumber(1 - f.alpha)}·${k}) = ` +
            `${formatNumber(f.alpha + (1 - f.alpha) * k)}·T，比逐个运行少 ${formatNumber((k - 1) * f.alpha)}·T`;
      const cap = f.maxBatch !== null && f.maxBatch < f.k ? `（显存上限把它拆成每次 ${f.maxBatch} 个配置的 launch）` : '';
      const pad = f.padding !== null ? `；一次 launch 混合了不同结构，要填充到其中最慢的配置，这让各 rank 总共多花 ${u(f.padding)}` : '';
      return `每个 rank 把它每个样本的 ${f.k} 个配置作为一次 launch 运行${cap}：${saving}${pad}。${speed}${idleNote}。`;
    }
    case 'by-structure': {
      const what =
        f.latencyKind === 'constant'
          ? '在恒定延迟下每个配置的形状都相同，所以每个 rank 把自己的全部配置合成一批'
          : `${n} 个配置中有 ${f.structures} 种不同的结构（tier、insertion、top-K、激活块数）；每个 rank 把自己结构相同的配置合成一批，无需填充` +
            (f.structures > n / 2
              ? `（在 ${f.possibleStructures} 种可能的结构中，这个策略很少两次抽到同一种；学会了哪些配置划算的控制器抽到的结构更少，合批更多）`
              : '');
      return (
        `${what}：${f.launches} 次 launch，而不是 ${n} 次，峰值 batch ${f.peakBatch}。${speed}。从不比 per-rank-serial 慢：` +
        `b 个相同的配置耗时 T·(α + (1−α)·b) ≤ b·T。`
      );
    }
    case 'spread': {
      const wrap = f.ranks < f.k ? `，因为 ${f.ranks} 个 rank < 组大小 ${f.k}，在 rank ${f.ranks - 1} 之后回到 rank 0` : '';
      const gather = f.gathered
        ? `，然后对结果做一次 all-gather（${u(f.gatherCost)}），让每组的 advantage 看到组内全部 reward`
        : f.ranks > 1
          ? '；每组只有一个配置，所以没有组跨越多个 rank，无需 gather'
          : '';
      const each = f.least === f.busiest ? `${f.busiest} 个配置` : `${f.least}–${f.busiest} 个配置`;
      return `Config1-1 → rank 0，Config1-2 → rank 1，… 在扩展后的 batch 上轮流分配${wrap}：每个 rank 逐个运行 ${each}${gather}。${speed}。`;
    }
  }
}

export function conclusionZh(f: ConclusionFacts): string {
  const best = f.fastest[0]!;
  const tied = f.fastest.length > 1;
  const names = tied ? `${f.fastest.join('、')}（并列）` : best;
  return (
    `最快：${names}，${formatTime(f.makespan, f.unit)}，serial-dp 为 ${formatTime(f.serialMakespan, f.unit)}（${times(f.speedup)}）；` +
    `${tied ? `${best} 的` : '它的'}各 rank 平均有 ${f.idlePct}% 的时间空闲。`
  );
}

// Numbers are numbers: a loss or gradient that float32 cannot hold (overflow, NaN) is refused
// with the field and row that caused it, instead of printing `null` (JSON's NaN/Infinity) or a
// figure the frameworks would never produce (1e43) with exit 0.
import { ConfigError } from '../core/errors.ts';
import { FLOAT32_MAX, type LossBatch } from './loss-batch.ts';

const fits = (x: number) => Number.isFinite(x) && Math.abs(x) <= FLOAT32_MAX;
/** ln(FLOAT32_MAX): e^x overflows float32 above this. */
const LN_MAX = Math.log(FLOAT32_MAX);

/** What made token (b, t) leave float32's range, in the user's field names. */
function cause(batch: LossBatch, b: number, t: number): string {
  const i = b * batch.shape.tokens + t;
  const at = `row ${b}, token ${t}`;
  const logp = batch.logp[i]!;
  if (batch.settings.lossType === 'pairwise') return `'logp' or 'rewards' at ${at}`;
  const d = logp - batch.oldLogp[i]!;
  if (d > LN_MAX)
    return `the ratio exp(logp − oldLogp) = e^${d.toPrecision(4)} at ${at} (float32 holds up to e^88.7): check 'logp' and 'oldLogp' there`;
  const adv = batch.advantages?.[b] ?? 0;
  if (!fits(Math.exp(d) * adv)) return `ratio × advantage = ${(Math.exp(d) * adv).toPrecision(3)} at ${at}: check 'advantages'[${b}]`;
  const beta = batch.settings.beta;
  if (beta !== 0 && batch.refLogp) {
    const k = batch.refLogp[i]! - logp;
    if (k > LN_MAX || !fits(beta * Math.exp(k)))
      return `the KL term settings.beta × e^(refLogp − logp) at ${at}: check settings.beta (${beta}) and 'refLogp'`;
  }
  return `the weighted terms at ${at}: check 'advantages'[${b}] and settings.beta`;
}

/** Throws a ConfigError (exit 2) when the loss or any gradient is not a float32 number. */
export function checkLossResult(batch: LossBatch, result: { loss: number; gradLogp: Float32Array }): void {
  const { rows, tokens } = batch.shape;
  for (let i = 0; i < rows * tokens; i++) {
    if (!fits(result.gradLogp[i]!)) {
      const b = Math.floor(i / tokens);
      throw new ConfigError(`d loss / d logp overflows float32 (${result.gradLogp[i]}): ${cause(batch, b, i % tokens)}`);
    }
  }
  if (!fits(result.loss)) {
    // Every gradient is fine, so a token's term or their sum overflowed: name the first token whose term does.
    for (let i = 0; i < rows * tokens; i++) {
      if (batch.mask[i] === 0) continue;
      const b = Math.floor(i / tokens);
      const text = cause(batch, b, i % tokens);
      if (!text.startsWith('the weighted terms')) throw new ConfigError(`the loss overflows float32 (${result.loss}): ${text}`);
    }
    throw new ConfigError(
      `the loss overflows float32 (${result.loss}): the sum of the token terms leaves float32's range; check the size of 'advantages' and settings.beta`,
    );
  }
}

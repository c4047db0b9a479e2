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

/**
 * Token (b, t)'s term of the loss in float64, for naming where a sum left float32: the policy
 * term −ratio × advantage plus settings.beta × TRL's KL (e^k − k − 1, k = refLogp − logp); for
 * the pairwise loss, |logp| (its terms grow with the log-probabilities).
 */
function tokenTerm(batch: LossBatch, b: number, t: number): number {
  const i = b * batch.shape.tokens + t;
  const logp = batch.logp[i]!;
  if (batch.settings.lossType === 'pairwise') return Math.abs(logp);
  const adv = (batch.advantages?.[b] as number | undefined) ?? 0;
  let term = -Math.exp(logp - batch.oldLogp[i]!) * adv;
  if (batch.settings.beta !== 0 && batch.refLogp) {
    const k = batch.refLogp[i]! - logp;
    term += batch.settings.beta * (Math.exp(k) - k - 1);
  }
  return term;
}

/** What to check in row b, in the user's field names. */
function rowFields(batch: LossBatch, b: number): string {
  if (batch.settings.lossType === 'pairwise') return `'logp' and 'rewards' in row ${b}`;
  return batch.settings.beta !== 0 && batch.refLogp ? `'advantages'[${b}], settings.beta and 'refLogp' in row ${b}` : `'advantages'[${b}]`;
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
    // No single factor overflows: a token's term (the policy term plus the KL term) or a row's sum of
    // them does. Name the token whose term leaves float32, else the row whose terms weigh most.
    let worstRow = 0;
    let worstSum = -1;
    for (let b = 0; b < rows; b++) {
      let sum = 0;
      for (let t = 0; t < tokens; t++) {
        if (batch.mask[b * tokens + t] === 0) continue;
        const term = tokenTerm(batch, b, t);
        if (!fits(term)) {
          throw new ConfigError(
            `the loss overflows float32 (${result.loss}): the term at row ${b}, token ${t} is ${term.toPrecision(3)}, beyond float32's ` +
              `±3.4e38; check ${rowFields(batch, b)}`,
          );
        }
        sum += Math.abs(term);
      }
      if (sum > worstSum) [worstRow, worstSum] = [b, sum];
    }
    throw new ConfigError(
      `the loss overflows float32 (${result.loss}): the sum of the token terms leaves float32's range; row ${worstRow} weighs most ` +
        `(Σ|term| = ${worstSum.toPrecision(3)}): check ${rowFields(batch, worstRow)}`,
    );
  }
}

// The pieces every framework home's normalisers are written with (src/core/frameworks/<home>/steps.ts):
// a normaliser whose weight depends on the token's row, a constant one, and the error for a loss
// type the version does not have.
import { type NormaliserTerms, normaliserText } from '../messages/steps.ts';
import type { Normaliser } from './types.ts';

export const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** A normaliser whose weight depends on the token's row. */
export const perRow = (perToken: (row: number) => number, terms: NormaliserTerms): Normaliser => ({
  perToken,
  terms,
  text: normaliserText(terms),
});

export const constant = (w: number, terms: NormaliserTerms): Normaliser => perRow(() => w, terms);

export function unknownLoss(framework: string, loss: string): never {
  throw new Error(`${framework}: no normaliser for loss '${loss}'`);
}

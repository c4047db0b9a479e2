// "Predict, then reveal" (quiz=1): the questions the explorer asks before a phase's tiles move,
// and their answers, read from the followed gather the core built (never from the picture). One
// prompt is followed through every question: the smallest prompt id in the gather.
//   scatter    — which ranks will hold its copies?                          (pick ranks)
//   accumulate — can the rank holding its first copy compute its group's mean alone? (yes / no)
//   gather     — at which gathered positions will its copies sit?           (type positions)
import type { Gather } from '../core/layout/types.ts';
import type { PhaseId } from './story.ts';
import { M } from './i18n/index.ts';

/** Above this many ranks the scatter question takes typed rank numbers instead of one button per rank. */
export const MAX_RANK_BUTTONS = 64;

export type Quiz =
  | {
      phase: 'scatter';
      kind: 'ranks';
      prompt: number;
      ranks: number;
      /** Ranks holding copies of the prompt in the gather, with how many copies each. */
      answer: ReadonlyMap<number, number>;
    }
  | {
      phase: 'accumulate';
      kind: 'yes-no';
      prompt: number;
      /** The rank asked about (it holds the prompt's first copy in gathered order) and the draw (uid) of that copy. */
      rank: number;
      uid: string;
      /** Copies of that draw in the gather, how many of them sit on `rank`, and the other ranks holding some. */
      copies: number;
      onRank: number;
      otherRanks: number[];
      answer: boolean;
    }
  | {
      phase: 'gather';
      kind: 'positions';
      prompt: number;
      samples: number;
      perRank: number;
      /** Gathered indices of every copy of the prompt in the gather, ascending. */
      answer: number[];
    };

export type QuizPhase = Quiz['phase'];
export const quizPhases: readonly PhaseId[] = ['scatter', 'accumulate', 'gather'];

/** A reader's guess: ranks or positions picked, or yes / no. */
export type QuizGuess = { numbers: ReadonlySet<number> } | { yes: boolean };

/** The question asked before `phase` moves, for the followed gather; null when the phase has none (or the gather is empty). */
export function quizFor(phase: PhaseId, gather: Gather, ranks: number): Quiz | null {
  const samples = gather.samples;
  if (samples.length === 0) return null;
  let prompt = Number.POSITIVE_INFINITY;
  for (const s of samples) if (s.promptId < prompt) prompt = s.promptId;
  if (phase === 'scatter') {
    const answer = new Map<number, number>();
    for (const s of samples) if (s.promptId === prompt) answer.set(s.rank, (answer.get(s.rank) ?? 0) + 1);
    return { phase, kind: 'ranks', prompt, ranks, answer };
  }
  if (phase === 'accumulate') {
    const first = samples.find((s) => s.promptId === prompt)!;
    const draw = samples.filter((s) => s.uid === first.uid);
    const onRank = draw.filter((s) => s.rank === first.rank).length;
    const otherRanks = [...new Set(draw.filter((s) => s.rank !== first.rank).map((s) => s.rank))].sort((a, b) => a - b);
    return {
      phase,
      kind: 'yes-no',
      prompt,
      rank: first.rank,
      uid: first.uid,
      copies: draw.length,
      onRank,
      otherRanks,
      answer: onRank === draw.length,
    };
  }
  if (phase === 'gather') {
    const answer: number[] = [];
    samples.forEach((s, i) => {
      if (s.promptId === prompt) answer.push(i);
    });
    return { phase, kind: 'positions', prompt, samples: samples.length, perRank: samples.length / ranks, answer };
  }
  return null;
}

/** A stable name for a question (its phase, prompt and answer), so a new gather or layout asks afresh. */
export function quizKey(q: Quiz): string {
  const answer = q.kind === 'ranks' ? [...q.answer.entries()] : q.kind === 'yes-no' ? [q.rank, q.uid, q.answer] : q.answer;
  return JSON.stringify([q.phase, q.prompt, answer]);
}

/** The question in words. */
export function quizQuestion(q: Quiz): string {
  switch (q.kind) {
    case 'ranks':
      return M().quiz.askRanks(q.prompt, q.ranks > MAX_RANK_BUTTONS);
    case 'yes-no':
      return M().quiz.askMean(q.rank, q.prompt, q.copies);
    case 'positions':
      return M().quiz.askPositions(q.samples - 1, q.prompt);
  }
}

/** Numbers typed by the reader ("3, 17 30"): every non-negative integer in the text. */
export function parseNumbers(text: string): Set<number> {
  return new Set((text.match(/\d+/g) ?? []).map(Number));
}

/** The answer and how the guess compares with it, in words. */
export function quizResult(q: Quiz, guess: QuizGuess | null): string {
  const T = M().quiz;
  switch (q.kind) {
    case 'ranks': {
      const list = [...q.answer.entries()].sort((a, b) => a[0] - b[0]);
      const where = T.list(list.map(([r, n]) => T.where(r, n)));
      const picked = guess && 'numbers' in guess ? guess.numbers : new Set<number>();
      const hits = [...picked].filter((r) => q.answer.has(r)).length;
      const misses = picked.size - hits;
      return T.ranksResult(q.prompt, where, hits, list.length, misses);
    }
    case 'yes-no': {
      const verdict = guess && 'yes' in guess ? (guess.yes === q.answer ? T.right : T.notQuite) : '';
      const why = q.answer ? T.meanYes(q.copies, q.rank) : T.meanNo(q.rank, q.onRank, q.copies, T.list(q.otherRanks.map((r) => T.rank(r))));
      return verdict + why;
    }
    case 'positions': {
      const named = guess && 'numbers' in guess ? guess.numbers : new Set<number>();
      const right = new Set(q.answer);
      const hits = [...named].filter((i) => right.has(i)).length;
      const misses = named.size - hits;
      return T.positionsResult(q.prompt, q.answer, q.perRank, hits, misses);
    }
  }
}

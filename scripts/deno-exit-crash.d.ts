// Types of scripts/deno-exit-crash.js (plain JavaScript: the test runner runs without tsx) for its test.
export declare const EXIT_CRASH_NOTE: string;
export declare function denoExitCrash(signal: string | null, stderr: string): string | null;

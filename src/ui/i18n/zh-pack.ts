// Simplified Chinese as one chunk: the page's catalogue and the core's message templates, loaded
// only when the page is read in Chinese (index.ts).
import { CORE_ZH } from './core-zh.ts';
import type { LanguagePack } from './index.ts';
import { zhCN } from './zh-CN.ts';

export const zhPack: LanguagePack = { catalogue: zhCN, core: CORE_ZH };

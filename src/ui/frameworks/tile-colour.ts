// A prompt's colour in both framework figures: hues spread by the golden angle, so neighbouring ids differ.
export const promptHue = (prompt: number) => Math.round((prompt * 137.508) % 360);
export const promptFill = (prompt: number) => `hsl(${promptHue(prompt)} 55% 82%)`;
export const promptStroke = (prompt: number) => `hsl(${promptHue(prompt)} 45% 38%)`;
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

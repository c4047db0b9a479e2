// What the views share about settings: an element's attributes as the `get(key)` callback of a
// feature's parse function (src/core/setting.ts), and the parse functions' messages in a form's words.

/** A getter over attribute texts: an absent or blank attribute is a setting not given. */
export function attributeGetter(attrs: Record<string, string | null | undefined>): (key: string) => string | null {
  return (key) => {
    const v = Object.hasOwn(attrs, key) ? attrs[key] : null;
    return v === null || v === undefined || v.trim() === '' ? null : v;
  };
}

/** A settings error in the page's words: its fields are labelled by the keys, so the CLI's `--` goes. */
export function formWords(message: string): string {
  return message.replace(/--([a-z][a-z-]*)/g, '$1');
}

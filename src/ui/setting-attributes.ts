// What the views share about settings: an element's attributes as the `get(key)` callback of a
// feature's parse function (src/core/setting.ts). The parse functions' messages are facts, which a
// form says in its own words (src/ui/core-text.ts: `saidOf(err, true)`, a setting named by its key).

/** A getter over attribute texts: an absent or blank attribute is a setting not given. */
export function attributeGetter(attrs: Record<string, string | null | undefined>): (key: string) => string | null {
  return (key) => {
    const v = Object.hasOwn(attrs, key) ? attrs[key] : null;
    return v === null || v === undefined || v.trim() === '' ? null : v;
  };
}

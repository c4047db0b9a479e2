// The AReaL commit every fact in this home was read from.
export const AREAL_COMMIT = '4aef98d8d818af55b43621aaadba047ae10f4e77';
export const AREAL_VERSION = `AReaL ${AREAL_COMMIT.slice(0, 7)}`;
/** A message AReaL raises, with the version it was read from. */
export const arealSays = (text: string) => `${text} (${AREAL_VERSION})`;

// The SkyRL commit the home models.
export const SKYRL_VERSION = 'a956457';
export const SKYRL_COMMIT = 'a9564572eb8e91076be43c1bd5e4615e3de17265';

/** A SkyRL error text, marked with the version it comes from. */
export function skyrlSays(text: string): string {
  return `${text} (SkyRL ${SKYRL_VERSION})`;
}

// The ROLL commit the home models.
export const ROLL_VERSION = '8eb27cc';
export const ROLL_COMMIT = '8eb27cc2dc34c4d1310b169d9b86d339004d811a';

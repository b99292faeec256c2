export const EXIT = { ok: 0, requestErrors: 1, badInput: 2 } as const;

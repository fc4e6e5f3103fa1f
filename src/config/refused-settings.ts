/**
 * Settings of Serverless Framework v3 that fw refuses on purpose, because what v3 does with them is
 * broken or unsafe. Each has the one line fw prints (the settings sweep test checks fw prints exactly
 * it for the swept sample) and the reason, which README's Compatibility section lists.
 * The paths are the settings sweep's (`functions.hello.events.<type>.<setting>`).
 */
export const REFUSED_SETTINGS: Record<string, { message: string; reason: string }> = {};

/**
 * One emoji as people see one, as a reaction carries it: a flag, a skin tone or a family joined by ZWJ
 * counts as one. The pattern is compiled on first use: building the set of every RGI emoji takes about
 * 20 ms, paid at start by every process that loads the domain or the simulator (each CLI command among
 * them), most of which never check a reaction.
 */
let singleEmoji: RegExp | undefined;

export function isSingleEmoji(text: string): boolean {
  singleEmoji ??= /^\p{RGI_Emoji}$/v;
  return singleEmoji.test(text);
}

// A compose `command: "a 'b c'"` string as argv, split as a POSIX shell would split words (quotes,
// backslashes), without running a shell: compose does the same.
export function shellWords(text: string): string[] | { problem: string } {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (c === '\\' && i + 1 < text.length && (quote === null || '"\\$`'.includes(text[i + 1]))) {
      word = (word ?? '') + text[++i];
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (quote) return { problem: `unclosed ${quote} in ${JSON.stringify(text)}` };
  if (word !== null) words.push(word);
  return words;
}

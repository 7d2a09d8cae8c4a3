// Every form in which a model (or a tool) could write back a key: as is, JSON-escaped, URL-encoded,
// base64 alone or inside a longer text at each alignment. Tests echo them and then look for them.
export function keyForms(key: string): Record<string, string> {
  const uAll = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  return {
    plain: key,
    'json \\u escapes, all': uAll,
    'json \\u escapes, some, upper case': key.replace(/-/g, '\\u002D'),
    'url-encoded, all': [...key].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
    'url-encoded, some': encodeURIComponent(key).replace(/-/g, '%2d'),
    base64: Buffer.from(key).toString('base64'),
    'base64 inside a longer text': Buffer.from(`Authorization: Bearer ${key}\n`).toString('base64'),
    'base64 inside, shifted by one': Buffer.from(`xAuthorization: Bearer ${key}\n`).toString('base64'),
    'base64 inside, shifted by two': Buffer.from(`xxAuthorization: Bearer ${key}\n`).toString('base64'),
    base64url: Buffer.from(`>>${key}??`).toString('base64url'),
  };
}

/** How `text` holds `key`, if it does: decoded independently of the scrubber (escapes at any depth). */
export function formsIn(text: string, key: string): string[] {
  const found: string[] = [];
  if (text.includes(key)) found.push('plain');
  if (text.replace(/\\+u([0-9a-fA-F]{4})/g, (_, h) => String.fromCharCode(parseInt(h, 16))).includes(key))
    found.push('json-escaped');
  if (text.replace(/%([0-9a-fA-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))).includes(key))
    found.push('url-encoded');
  const bytes = Buffer.from(key);
  for (let shift = 0; shift < 3; shift++) {
    const core = bytes.subarray(shift, shift + Math.floor((bytes.length - shift) / 3) * 3);
    if (text.includes(core.toString('base64')) || text.includes(core.toString('base64url')))
      found.push(`base64 (alignment ${shift})`);
  }
  return found;
}

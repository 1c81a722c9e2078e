// The session list's pure parts: its metadata filter and its tree order (branches under parents).

/** Parses "topic=demo, team=a" into {topic: 'demo', team: 'a'}; throws naming a bad pair. */
export function parseMetadata(text) {
  const out = {};
  for (const part of text.split(/[,\n]/).map(p => p.trim()).filter(Boolean)) {
    const i = part.indexOf('=');
    if (i <= 0) throw new Error(`metadata filter "${part}" is not KEY=VALUE`);
    out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

/** Orders a page so each branch comes right after its parent (when the parent is on the page), with its depth. */
export function treeOrder(items) {
  const byId = new Map(items.map(s => [s.id, s]));
  const children = new Map();
  const roots = [];
  for (const s of items) {
    if (s.parentId && byId.has(s.parentId)) {
      if (!children.has(s.parentId)) children.set(s.parentId, []);
      children.get(s.parentId).push(s);
    } else roots.push(s);
  }
  const out = [];
  const seen = new Set();
  const walk = (s, depth) => {
    if (seen.has(s.id)) return;
    seen.add(s.id);
    out.push({ s, depth });
    for (const c of (children.get(s.id) || []).sort((a, b) => a.parentSeq - b.parentSeq || a.id.localeCompare(b.id))) walk(c, depth + 1);
  };
  roots.forEach(r => walk(r, 0));
  items.forEach(s => walk(s, 0)); // a cycle cannot happen, but never drop a row
  return out;
}

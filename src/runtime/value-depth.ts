/**
 * Nesting depth of request params, measured without recursion so that no input can exhaust the stack while it is
 * checked. Anything deeper than the protocol's limit (MAX_PARAMS_DEPTH) is refused before validation, so a deeply
 * nested value can never reach code that walks it recursively (validation, JSON.stringify of a model request).
 */

interface Frame {
  value: unknown;
  depth: number;
  /** The frame this value sits in, and its key there: the path is built only for a violation. */
  parent: Frame | undefined;
  key: string | number | undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function segment(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`;
  if (IDENTIFIER.test(key)) return `.${key.length > 40 ? key.slice(0, 37) + '…' : key}`;
  return `[${JSON.stringify(key.length > 40 ? key.slice(0, 37) + '…' : key)}]`;
}

/** `params.tools[0].inputSchema.properties.a … (49 more levels) … .properties.a`: long paths keep both ends. */
export function formatPath(root: string, keys: ReadonlyArray<string | number>): string {
  const parts = keys.map(segment);
  if (parts.length <= 14) return root + parts.join('');
  const head = parts.slice(0, 8).join('');
  const tail = parts.slice(-4).join('');
  return `${root}${head} … (${parts.length - 12} more levels) … ${tail}`;
}

function pathOf(frame: Frame): Array<string | number> {
  const keys: Array<string | number> = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) keys.push(f.key);
  return keys.reverse();
}

/**
 * The path of the first object or array nested deeper than `limit` levels (the value itself is level 1), or
 * undefined when it stays within the limit. Strings, numbers and other leaves do not add a level.
 */
export function findTooDeep(value: unknown, limit: number): Array<string | number> | undefined {
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: undefined }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const v = frame.value;
    if (typeof v !== 'object' || v === null) continue;
    if (frame.depth > limit) return pathOf(frame);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const child: unknown = v[i];
        if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key: i });
      }
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child = (v as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return undefined;
}

/** The refusal text for params nested deeper than `limit`, or undefined when they are within it. */
export function paramsDepthError(params: unknown, limit: number): string | undefined {
  const keys = findTooDeep(params, limit);
  if (!keys) return undefined;
  return (
    `params are nested more than ${limit} levels deep at ${formatPath('params', keys)}: ` +
    `the protocol accepts at most ${limit} levels of objects and arrays; send a flatter value`
  );
}

import * as z from '../protocol/zod';

// The runtime parses few values per schema (a config file, a request), so zod's compiled fast path costs more to
// build than it saves; interpreted parsing starts faster.
z.config({ jitless: true });

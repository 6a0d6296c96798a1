import { z } from "zod";

/**
 * zod (inside the API reference) probes for eval with a caught `new Function`; the page's CSP has
 * no 'unsafe-eval', so the probe only reports a violation. Without it zod validates the same way.
 * Its own module, imported first: the reference's modules evaluate (and may probe) on import.
 */
z.config({ jitless: true });

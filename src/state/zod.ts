import type { z } from 'zod';
import type { Validate } from './store.js';

/** Adapts a zod schema to the store's `Validate` (errors as `path: message`). */
export function zodValidate<S extends z.ZodType>(schema: S): Validate<z.infer<S>> {
  return (value) => {
    const result = schema.safeParse(value);
    if (result.success) return { ok: true, value: result.data };
    return {
      ok: false,
      errors: result.error.issues.map(
        (issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`,
      ),
    };
  };
}

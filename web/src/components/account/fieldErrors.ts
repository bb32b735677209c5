import { serverError } from '../../api';

/** What a failed safeParse of a proto schema carries, as far as the forms read it. */
interface SchemaIssues {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

/** Inline messages of a form, by input name. */
export type FieldErrors<Name extends string> = Partial<Record<Name, string>>;

/** The first message of the shared schema for each of `names` (what the server would answer, said before asking). */
export function schemaErrors<Name extends string>(error: SchemaIssues, names: readonly Name[]): FieldErrors<Name> {
  const errors: FieldErrors<Name> = {};
  for (const issue of error.issues) {
    const name = issue.path[0];
    if (typeof name === 'string' && (names as readonly string[]).includes(name) && !errors[name as Name]) errors[name as Name] = issue.message;
  }
  return errors;
}

/**
 * A 400/409 answer that names one of the form's inputs (the shared error
 * body's `field`), as that input's message; undefined for any other failure,
 * which the form shows as a toast.
 */
export function serverFieldError<Name extends string>(error: unknown, names: readonly Name[]): FieldErrors<Name> | undefined {
  const shown = serverError(error);
  if (!shown?.field || !(names as readonly string[]).includes(shown.field)) return undefined;
  return { [shown.field]: shown.message } as FieldErrors<Name>;
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { useAuth } from './auth';

/**
 * A form's draft (issue 40: forms never lose typed work without asking):
 * what was typed is kept in localStorage, per signed-in person and per form
 * (`hoptrack:draft:<person>:<form>`), while it differs from the form's
 * starting point; the next opening of the form (after a reload, a closed
 * tab) starts from it. It is dropped when the form is sent successfully or
 * the person discards it (`clear`). Without a signed-in person, or without
 * storage, the draft lives only as long as the form.
 */
export interface FormDraft<T> {
  value: T;
  setValue: (change: (current: T) => T) => void;
  /** The form started from a kept draft, not from its starting point. */
  restored: boolean;
  /** Something differs from the starting point. */
  changed: boolean;
  /** Forgets the kept draft (sent, or discarded); the form keeps what it shows. */
  clear: () => void;
  /** Back to the starting point, the kept draft forgotten. */
  reset: () => void;
}

const storageKey = (person: string, form: string) => `hoptrack:draft:${person}:${form}`;

/** The kept draft, when it has the starting point's shape (every key, of the same kind); anything else is ignored. */
function readDraft<T extends object>(key: string, initial: T): T | null {
  let stored: unknown;
  try {
    const text = window.localStorage.getItem(key);
    if (text === null) return null;
    stored = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
  const record = stored as Record<string, unknown>;
  for (const [name, start] of Object.entries(initial)) {
    const value = record[name];
    const sameKind = start === null ? typeof value === 'object' : Array.isArray(start) ? Array.isArray(value) : typeof value === typeof start;
    if (!(name in record) || !sameKind) return null;
  }
  return { ...initial, ...record };
}

function writeDraft(key: string, value: unknown): void {
  try {
    if (value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or unavailable: the draft lives as long as the form
  }
}

export function useFormDraft<T extends object>(form: string, initial: T): FormDraft<T> {
  const person = useAuth().user?.id;
  const key = person ? storageKey(person, form) : null;
  const [start] = useState(initial);
  const [state, setState] = useState(() => {
    const kept = key ? readDraft(key, start) : null;
    return { value: kept ?? start, restored: kept !== null };
  });
  const changed = JSON.stringify(state.value) !== JSON.stringify(start);
  // After clear(), nothing is written again: the form is closing with what it sent.
  const done = useRef(false);

  useEffect(() => {
    if (!key || done.current) return;
    writeDraft(key, changed ? state.value : undefined);
  }, [key, changed, state.value]);

  const setValue = useCallback((change: (current: T) => T) => setState((current) => ({ ...current, value: change(current.value) })), []);
  const clear = useCallback(() => {
    done.current = true;
    if (key) writeDraft(key, undefined);
  }, [key]);
  const reset = useCallback(() => {
    if (key) writeDraft(key, undefined);
    setState({ value: start, restored: false });
  }, [key, start]);
  return { value: state.value, setValue, restored: state.restored, changed, clear, reset };
}

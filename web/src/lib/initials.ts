/** Avatar fallback: the display name's first letter uppercased, else 'U' (spec section 2). */
export function initialOf(displayName: string | null | undefined): string {
  const first = displayName?.trim().charAt(0);
  return first ? first.toUpperCase() : 'U';
}

import { SEARCH_QUERY_MAX } from '@hoptrack/proto/constants';
import { useId } from 'react';
import { SearchInput } from '../SearchInput';

interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  /** How many characters a search needs; said under the box until `active`. */
  minLength: number;
  /** The text is long enough: the hint goes away. */
  active: boolean;
}

/** The 'Search users' input with a magnifier and, until the text is long enough, how much to type. */
export function SearchBox({ value, onChange, minLength, active }: SearchBoxProps) {
  const hintId = useId();
  return (
    <SearchInput
      value={value}
      onChange={onChange}
      label="Search users"
      placeholder="Search by name or username"
      maxLength={SEARCH_QUERY_MAX}
      describedBy={active ? undefined : hintId}
    >
      {!active && (
        <p id={hintId} className="search-box__hint">
          Type at least {minLength} characters to search.
        </p>
      )}
    </SearchInput>
  );
}

import type { ReactNode } from 'react';
import { SearchIcon } from './icons';

interface SearchInputProps {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder: string;
  maxLength: number;
  /** Extra classes on the wrapper (layout of the screen it sits in). */
  className?: string;
  describedBy?: string;
  /** Shown under the input (a hint). */
  children?: ReactNode;
}

/** A search field with its magnifier: the one every search screen uses. */
export function SearchInput({ value, onChange, label, placeholder, maxLength, className, describedBy, children }: SearchInputProps) {
  return (
    <div className={className ? `search-box ${className}` : 'search-box'}>
      <SearchIcon className="search-box__icon" />
      <input
        type="search"
        className="field__input search-box__input"
        aria-label={label}
        aria-describedby={describedBy}
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {children}
    </div>
  );
}

/** The search box over the runs library, in the library itself and in the compare picker. */
export function RunSearchField({
  testId,
  label,
  placeholder = label,
  value,
  onChange,
}: {
  testId: string;
  /** For screen readers, and the placeholder unless another is given. */
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      type="search"
      className="search"
      data-testid={testId}
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

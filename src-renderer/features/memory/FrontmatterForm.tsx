import { useId } from 'react';
import { MEMORY_TYPES, type FieldErrors, type MemoryFields } from './frontmatter';

type Key = keyof MemoryFields;

/**
 * The frontmatter of a memory file as a form. Each field writes through to the file's text (one
 * source of truth: the editor), and each shows its own problem under it as the person types.
 */
export function FrontmatterForm({
  fields,
  errors,
  readOnly,
  onField,
}: {
  fields: MemoryFields;
  errors: FieldErrors;
  readOnly: boolean;
  onField: (key: Key, value: string) => void;
}) {
  const id = useId();
  const needsWhy = fields.type === 'feedback' || fields.type === 'project';
  const field = (key: Key, label: string, input: 'text' | 'select' = 'text') => {
    const error = errors[key];
    const inputId = `${id}-${key}`;
    const errorId = `${inputId}-error`;
    const common = {
      id: inputId,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? errorId : undefined,
      disabled: readOnly,
    } as const;
    return (
      <div className="memory-field" key={key}>
        <label htmlFor={inputId}>{label}</label>
        {input === 'select' ? (
          <select {...common} value={fields[key]} onChange={(e) => onField(key, e.target.value)}>
            {fields.type === '' || !MEMORY_TYPES.includes(fields.type as never) ? (
              <option value={fields.type}>{fields.type === '' ? 'Choose…' : fields.type}</option>
            ) : null}
            {MEMORY_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...common}
            value={fields[key]}
            spellCheck={key !== 'name'}
            onChange={(e) => onField(key, e.target.value)}
          />
        )}
        {error ? (
          <span id={errorId} className="memory-field-error" role="alert">
            {error}
          </span>
        ) : null}
      </div>
    );
  };
  return (
    <fieldset className="memory-form" aria-label="Frontmatter">
      {errors.yaml ? (
        <p className="memory-field-error" role="alert">
          {errors.yaml}
        </p>
      ) : null}
      {field('name', 'Name')}
      {field('type', 'Type', 'select')}
      {field('description', 'Description')}
      {needsWhy ? field('why', 'Why') : null}
      {needsWhy ? field('howToApply', 'How to apply') : null}
    </fieldset>
  );
}

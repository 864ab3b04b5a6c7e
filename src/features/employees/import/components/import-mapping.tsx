import { FormattedMessage, useIntl } from 'react-intl';
import { IMPORT_FIELDS, type ImportField, type ImportPreview } from '../../../../domain/company';
import { Select, type SelectOption } from '../../../../ui/select';
import { fieldMessages, ignoreMessage } from '../field-messages';
import { IGNORE_COLUMN, duplicatedFields, fieldOfChoice, missingRequiredFields, type ColumnMapping } from '../mapping';

export interface ImportMappingProps {
  preview: ImportPreview;
  mapping: ColumnMapping;
  onChange: (index: number, field: ImportField | null) => void;
  disabled?: boolean;
}

/** Up to `count` different non-empty values of a column in the sample rows. */
function examplesOf(sample: readonly (readonly string[])[], index: number, count = 2): string[] {
  const found: string[] = [];
  for (const row of sample) {
    const value = row[index]?.trim();
    if (value && !found.includes(value)) found.push(value);
    if (found.length === count) break;
  }
  return found;
}

/**
 * The preview step: each column of the file with the field it fills (the server's guess, changeable), the
 * first rows as read, and what stops the import (a required field without a column, a field with two).
 */
export function ImportMapping({ preview, mapping, onChange, disabled = false }: ImportMappingProps) {
  const intl = useIntl();
  const options: SelectOption[] = [
    ...IMPORT_FIELDS.map((field) => ({ id: field, title: intl.formatMessage(fieldMessages[field]) })),
    { id: IGNORE_COLUMN, title: intl.formatMessage(ignoreMessage) },
  ];
  const fieldTitle = (field: ImportField) => intl.formatMessage(fieldMessages[field]);
  const missing = missingRequiredFields(mapping);
  const duplicated = duplicatedFields(mapping);
  const columns = [...preview.columns].sort((a, b) => a.index - b.index);
  const headerOf = (index: number, header: string) =>
    header.trim() !== '' ? header : intl.formatMessage({ id: 'employees.import.mapping.unnamedColumn', defaultMessage: 'Column {number}' }, { number: index + 1 });

  return (
    <section className="import-mapping" aria-labelledby="import-mapping-title" data-step="mapping">
      <h2 className="import-section__title" id="import-mapping-title">
        <FormattedMessage id="employees.import.mapping.title" defaultMessage="Check the columns" />
      </h2>
      <p className="import-section__text">
        <FormattedMessage
          id="employees.import.mapping.summary"
          defaultMessage="“{fileName}”: {rows, plural, one {# row} other {# rows}} of employees. Each column of the file fills the field chosen under its header; change it where the guess is wrong, or choose “Do not import”."
          values={{ fileName: preview.fileName, rows: preview.totalRows }}
        />
      </p>

      <ul className="import-mapping__columns">
        {columns.map((column) => {
          const field = mapping[column.index] ?? null;
          const examples = examplesOf(preview.sample, column.index);
          const isDuplicated = field !== null && duplicated.includes(field);
          return (
            <li className="import-mapping__column" key={column.index} data-column={column.index}>
              <Select
                name={`column-${column.index}`}
                label={headerOf(column.index, column.header)}
                options={options}
                value={field ?? IGNORE_COLUMN}
                disabled={disabled}
                onChange={(choice) => onChange(column.index, fieldOfChoice(choice))}
                error={
                  isDuplicated ? (
                    <FormattedMessage
                      id="employees.import.mapping.duplicateField"
                      defaultMessage="Another column fills “{field}” too"
                      values={{ field: fieldTitle(field) }}
                    />
                  ) : undefined
                }
                tip={
                  examples.length > 0 ? (
                    <FormattedMessage
                      id="employees.import.mapping.examples"
                      defaultMessage="For example: {examples}"
                      values={{ examples: examples.join(', ') }}
                    />
                  ) : (
                    <FormattedMessage id="employees.import.mapping.emptyColumn" defaultMessage="Empty in the first rows" />
                  )
                }
              />
            </li>
          );
        })}
      </ul>

      {missing.length > 0 && (
        <p className="import-alert import-alert--error" role="alert" data-problem="missing-columns">
          <FormattedMessage
            id="employees.import.mapping.missing"
            defaultMessage="{count, plural, one {The required field {fields} has no column.} other {The required fields {fields} have no column.}} Choose the columns that hold them above, or add them to the file and choose it again."
            values={{ count: missing.length, fields: intl.formatList(missing.map(fieldTitle), { type: 'conjunction' }) }}
          />
        </p>
      )}
      {duplicated.length > 0 && (
        <p className="import-alert import-alert--error" role="alert" data-problem="duplicated-fields">
          <FormattedMessage
            id="employees.import.mapping.duplicates"
            defaultMessage="Each field can come from one column only: {fields}. Choose “Do not import” for the extra columns."
            values={{ fields: intl.formatList(duplicated.map(fieldTitle), { type: 'conjunction' }) }}
          />
        </p>
      )}

      {preview.sample.length > 0 && (
        <>
          <h3 className="import-section__subtitle" id="import-sample-title">
            <FormattedMessage id="employees.import.sample.title" defaultMessage="First rows of the file" />
          </h3>
          {/* Wide files scroll sideways inside this box, not the page; keyboard users can scroll it too. */}
          <div className="import-sample" role="region" aria-labelledby="import-sample-title" tabIndex={0}>
            <table className="import-sample__table">
              <thead>
                <tr>
                  {columns.map((column) => {
                    const field = mapping[column.index] ?? null;
                    return (
                      <th scope="col" key={column.index} className={field === null ? 'import-sample__ignored' : undefined}>
                        <span className="import-sample__header">{headerOf(column.index, column.header)}</span>
                        <span className="import-sample__field">{field === null ? intl.formatMessage(ignoreMessage) : fieldTitle(field)}</span>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {preview.sample.map((row, rowIndex) => (
                  // The sample never changes order; its position is its identity. (No row numbers: the server
                  // drops empty rows and may find the header below row 1, so a count here could mislead.)
                  <tr key={rowIndex}>
                    {columns.map((column) => (
                      <td key={column.index} className={(mapping[column.index] ?? null) === null ? 'import-sample__ignored' : undefined}>
                        {row[column.index] ?? ''}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

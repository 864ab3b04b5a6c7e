// Titles of the employee fields a column of the import can fill (IMPORT_FIELDS), and of "ignore".
import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { ImportField } from '../../../domain/company';

export const fieldMessages: Record<ImportField, MessageDescriptor> = defineMessages({
  lastName: { id: 'employees.import.field.lastName', defaultMessage: 'Last name' },
  firstName: { id: 'employees.import.field.firstName', defaultMessage: 'First name' },
  middleName: { id: 'employees.import.field.middleName', defaultMessage: 'Middle name' },
  position: { id: 'employees.import.field.position', defaultMessage: 'Position' },
  email: { id: 'employees.import.field.email', defaultMessage: 'E-mail' },
  serviceNumber: { id: 'employees.import.field.serviceNumber', defaultMessage: 'Service number' },
  department: { id: 'employees.import.field.department', defaultMessage: 'Department' },
});

export const ignoreMessage: MessageDescriptor = defineMessages({
  ignore: { id: 'employees.import.field.ignore', defaultMessage: 'Do not import' },
}).ignore;

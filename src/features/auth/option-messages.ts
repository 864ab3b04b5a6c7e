// Titles of the registration choices. The app config (`GET /enums`) needs a signed-in user, so the
// registration form carries its own titles.

import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { IMPLEMENTATION_GOALS, Position, RegistrationRole } from '../../domain/auth';

export const roleMessages: Record<RegistrationRole, MessageDescriptor> = defineMessages({
  OWNER: { id: 'auth.role.OWNER', defaultMessage: 'Owner' },
  CEO: { id: 'auth.role.CEO', defaultMessage: 'CEO' },
  TOP_MANAGER: { id: 'auth.role.TOP_MANAGER', defaultMessage: 'Top management' },
  FIRST_LINE_MANAGER: { id: 'auth.role.FIRST_LINE_MANAGER', defaultMessage: 'First-line managers' },
  MIDDLE_MANAGER: { id: 'auth.role.MIDDLE_MANAGER', defaultMessage: 'Middle managers' },
});

export const positionMessages: Record<Position, MessageDescriptor> = defineMessages({
  OWNER: { id: 'auth.position.OWNER', defaultMessage: 'Owner' },
  GENERAL_DIRECTOR: { id: 'auth.position.GENERAL_DIRECTOR', defaultMessage: 'General director' },
  DEPUTY_DIRECTOR: { id: 'auth.position.DEPUTY_DIRECTOR', defaultMessage: 'Deputy director' },
  PRODUCTION_DIRECTOR: { id: 'auth.position.PRODUCTION_DIRECTOR', defaultMessage: 'Production director' },
  FINANCIAL_DIRECTOR: { id: 'auth.position.FINANCIAL_DIRECTOR', defaultMessage: 'Financial director' },
  HR_DIRECTOR: { id: 'auth.position.HR_DIRECTOR', defaultMessage: 'HR director' },
  HR_SPECIALIST: { id: 'auth.position.HR_SPECIALIST', defaultMessage: 'HR specialist' },
  DEPARTMENT_HEAD: { id: 'auth.position.DEPARTMENT_HEAD', defaultMessage: 'Head of department' },
  OTHER: { id: 'auth.position.OTHER', defaultMessage: 'Other position' },
});

export const goalMessages: Record<(typeof IMPLEMENTATION_GOALS)[number], MessageDescriptor> = defineMessages({
  COST_REDUCTION: { id: 'auth.goal.COST_REDUCTION', defaultMessage: 'Reduce costs' },
  PRODUCTIVITY: { id: 'auth.goal.PRODUCTIVITY', defaultMessage: 'Raise productivity' },
  QUALITY: { id: 'auth.goal.QUALITY', defaultMessage: 'Improve quality' },
  SAFETY: { id: 'auth.goal.SAFETY', defaultMessage: 'Improve workplace safety' },
  ENGAGEMENT: { id: 'auth.goal.ENGAGEMENT', defaultMessage: 'Engage employees' },
  OTHER: { id: 'auth.goal.OTHER', defaultMessage: 'Another goal' },
});

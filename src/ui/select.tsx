// The import path of the select for the rest of the app; the control lives in ./select/.
export { FILTER_DELAY_MS, MENU_BREAKPOINT_PX, Select } from './select/select';
export type { MultipleSelectProps, SelectOption, SelectProps, SingleSelectProps } from './select/select';

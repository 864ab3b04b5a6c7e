import { useId, useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation, useParams } from 'wouter';
import { paths } from '../../../domain/paths';
import { canDistributeSuggestion } from '../../../domain/permissions';
import { SUGGESTION_COMMENT_MAX, type DepartmentRow, type EmployeeRow } from '../../../domain/suggestion';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { FormError } from '../../../ui/form';
import { PageSpinner } from '../../../ui/spinner';
import { TextField } from '../../../ui/text-field';
import { Textarea } from '../../../ui/textarea';
import { useMemberView } from '../../../lib/member-view';
import { useCompanyStructure, useReviewActions, useSuggestion } from '../hooks';
import { headNameOf, shortNameOf } from '../people';
import '../suggestions.css';

/** People shown under an opened department; the rest are counted (a department of thousands stays usable). */
const PEOPLE_SHOWN = 100;

function fold(text: string): string {
  return text.toLocaleLowerCase().replaceAll('ё', 'е');
}

interface DepartmentChoice {
  department: DepartmentRow;
  headName: string | null;
  people: EmployeeRow[];
  /** With a search: the people whose names match (shown opened). */
  matchedPeople: EmployeeRow[];
}

function personName(person: EmployeeRow): string {
  return [person.lastName, person.firstName, person.middleName].filter((part) => part !== null && part !== '').join(' ');
}

function PeopleList({ people, listId }: { people: readonly EmployeeRow[]; listId: string }) {
  const shown = people.slice(0, PEOPLE_SHOWN);
  return (
    <ul className="distribute-people" id={listId}>
      {shown.map((person) => (
        <li key={person.id}>
          {person.position ? (
            <FormattedMessage id="suggestions.distribute.person" defaultMessage="{name}, {position}" values={{ name: shortNameOf(person), position: person.position }} />
          ) : (
            shortNameOf(person)
          )}
        </li>
      ))}
      {people.length > shown.length && (
        <li className="distribute-people__more">
          <FormattedMessage id="suggestions.distribute.morePeople" defaultMessage="and {count} more" values={{ count: people.length - shown.length }} />
        </li>
      )}
    </ul>
  );
}

function DepartmentOption({
  choice,
  isCurrent,
  isChosen,
  onChoose,
}: {
  choice: DepartmentChoice;
  isCurrent: boolean;
  isChosen: boolean;
  onChoose: () => void;
}) {
  const [isOpen, setOpen] = useState(false);
  const listId = useId();
  const { department, headName, people, matchedPeople } = choice;
  const shown = isOpen ? people : matchedPeople;
  return (
    <li className="distribute-option" data-chosen={isChosen || undefined} data-current={isCurrent || undefined}>
      <label className="distribute-option__choice">
        <input type="radio" name="departmentId" value={department.id} checked={isChosen} disabled={isCurrent} onChange={onChoose} />
        <span className="distribute-option__text">
          <span className="distribute-option__name">{department.name}</span>
          <span className="distribute-option__meta">
            <span>
              {headName ? (
                <FormattedMessage id="suggestions.distribute.head" defaultMessage="Head: {name}" values={{ name: headName }} />
              ) : (
                <FormattedMessage id="suggestions.distribute.noHead" defaultMessage="No head: the CEO decides" />
              )}
            </span>
            <span>
              <FormattedMessage
                id="suggestions.distribute.people"
                defaultMessage="{count, plural, one {# employee} other {# employees}}"
                values={{ count: people.length }}
              />
            </span>
            {isCurrent && (
              <span>
                <FormattedMessage id="suggestions.distribute.current" defaultMessage="it is here now" />
              </span>
            )}
          </span>
        </span>
      </label>
      {people.length > 0 && (
        <button type="button" className="distribute-option__toggle" aria-expanded={isOpen} aria-controls={listId} onClick={() => setOpen(!isOpen)}>
          {isOpen ? (
            <FormattedMessage id="suggestions.distribute.hidePeople" defaultMessage="Hide the people" />
          ) : (
            <FormattedMessage id="suggestions.distribute.showPeople" defaultMessage="Show the people" />
          )}
        </button>
      )}
      {shown.length > 0 && <PeopleList people={shown} listId={listId} />}
    </li>
  );
}

/**
 * The department selection screen: the company's departments from the mirror, each with its head and how many
 * work there, a search over departments and people, the people of a department on demand, an optional comment.
 * Passing it on is stored on the device and sent by the outbox (works offline), then the success page says
 * where it went.
 */
export default function SuggestionDistributePage() {
  const { companyId = '', suggestionId = '' } = useParams<{ companyId: string; suggestionId: string }>();
  const intl = useIntl();
  const dialog = useDialog();
  const [, navigate] = useLocation();
  const view = useSuggestion(companyId, suggestionId);
  const structure = useCompanyStructure(companyId);
  const member = useMemberView(companyId);
  const actions = useReviewActions(companyId);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<{ departmentId?: string; comment?: string }>({});
  const [isSending, setSending] = useState(false);

  const choices = useMemo((): DepartmentChoice[] => {
    if (!structure) return [];
    const byDepartment = new Map<string, EmployeeRow[]>();
    for (const employee of structure.employees) {
      if (employee.departmentId === null) continue;
      const list = byDepartment.get(employee.departmentId) ?? [];
      list.push(employee);
      byDepartment.set(employee.departmentId, list);
    }
    const needle = fold(query.trim());
    return structure.departments.flatMap((department): DepartmentChoice[] => {
      const people = byDepartment.get(department.id) ?? [];
      const headName = headNameOf(department, structure.members);
      if (needle === '') return [{ department, headName, people, matchedPeople: [] }];
      const matchedPeople = people.filter((person) => fold(personName(person)).includes(needle));
      const isMatch = fold(department.name).includes(needle) || (headName !== null && fold(headName).includes(needle));
      return isMatch || matchedPeople.length > 0 ? [{ department, headName, people, matchedPeople }] : [];
    });
  }, [query, structure]);

  if (view === undefined || structure === undefined || member === undefined) return <PageSpinner />;

  const back = (
    <p className="suggestions-page__back">
      <Link href={paths.company.suggestion(companyId, suggestionId)}>
        <FormattedMessage id="suggestions.distribute.back" defaultMessage="Back to the proposal" />
      </Link>
    </p>
  );
  const title = (
    <h1 className="suggestions-page__title" id="distribute-title">
      <FormattedMessage id="suggestions.distribute.title" defaultMessage="Pass to another department" />
    </h1>
  );
  if (view === null) {
    return (
      <section className="suggestions-page" aria-labelledby="distribute-title">
        {back}
        {title}
        <p role="status">
          <FormattedMessage id="suggestions.view.missing" defaultMessage="This proposal is not on this device" />
        </p>
      </section>
    );
  }
  const { suggestion } = view;
  if (suggestion.status !== 'UNDER_CONSIDERATION' || !canDistributeSuggestion(member, suggestion)) {
    return (
      <section className="suggestions-page" aria-labelledby="distribute-title">
        {back}
        {title}
        <p role="status">
          <FormattedMessage
            id="suggestions.distribute.unavailable"
            defaultMessage="This proposal cannot be passed on by you now: only an open proposal moves, by the head of its department, HR or the CEO."
          />
        </p>
      </section>
    );
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSending) return;
    if (chosen === null) {
      setErrors({ departmentId: intl.formatMessage({ id: 'suggestions.distribute.choose', defaultMessage: 'Choose the department that should decide it.' }) });
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await actions.distribute(suggestion.id, { departmentId: chosen, comment: comment.trim() === '' ? null : comment.trim() }, member);
      navigate(paths.company.suggestionSuccess(companyId, suggestion.id));
    } catch (error) {
      setSending(false);
      if (error instanceof FormError && Object.keys(error.fieldErrors).length > 0) {
        setErrors({ ...error.fieldErrors });
        return;
      }
      await dialog.error(error instanceof FormError && error.message !== '' ? { content: error.message } : {});
    }
  };

  const searchLabel = intl.formatMessage({ id: 'suggestions.distribute.search', defaultMessage: 'Find a department or a person' });
  return (
    <section className="suggestions-page" aria-labelledby="distribute-title">
      {back}
      {title}
      <p className="suggestions-page__lead">
        <FormattedMessage
          id="suggestions.distribute.lead"
          defaultMessage="“{title}” goes to the department you choose; its head gets 5 days from now to decide it."
          values={{ title: suggestion.title }}
        />
      </p>
      <form className="distribute-form" noValidate onSubmit={(event) => void submit(event)}>
        <TextField label={searchLabel} name="q" value={query} onChange={setQuery} inputMode="search" type="search" />
        <fieldset className="distribute-form__departments" aria-invalid={errors.departmentId ? true : undefined} aria-describedby={errors.departmentId ? 'distribute-department-error' : undefined}>
          <legend>
            <FormattedMessage id="suggestions.distribute.departments" defaultMessage="Departments" />
          </legend>
          {errors.departmentId && (
            <p className="distribute-form__error" id="distribute-department-error" role="alert">
              {errors.departmentId}
            </p>
          )}
          {choices.length === 0 ? (
            <p className="suggestion-form__note" role="status">
              {structure.departments.length === 0 ? (
                <FormattedMessage id="suggestions.form.noDepartments" defaultMessage="No departments on this device yet: connect once so they can load." />
              ) : (
                <FormattedMessage id="suggestions.distribute.noMatch" defaultMessage="Nothing matches the search." />
              )}
            </p>
          ) : (
            <ul className="distribute-options">
              {choices.map((choice) => (
                <DepartmentOption
                  key={choice.department.id}
                  choice={choice}
                  isCurrent={choice.department.id === suggestion.departmentId}
                  isChosen={choice.department.id === chosen}
                  onChoose={() => {
                    setChosen(choice.department.id);
                    setErrors({});
                  }}
                />
              ))}
            </ul>
          )}
        </fieldset>
        <Textarea
          label={intl.formatMessage({ id: 'suggestions.distribute.comment', defaultMessage: 'Comment for the new department (optional)' })}
          name="comment"
          value={comment}
          onChange={setComment}
          maxLength={SUGGESTION_COMMENT_MAX}
          error={errors.comment}
        />
        <Button type="submit" loading={isSending} block>
          <FormattedMessage id="suggestions.distribute.submit" defaultMessage="Pass it on" />
        </Button>
      </form>
    </section>
  );
}

import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { Collapse } from '../../../ui/collapse';
import type { DepartmentsOverview, Person } from '../structure';

/** People shown inside one opened department; the rest are one link away (the employees list, filtered). */
export const STRUCTURE_PEOPLE_SHOWN = 100;

/** The department filter's value for people without a department (the employees list's `NO_DEPARTMENT`). */
const NO_DEPARTMENT = 'none';

function PeopleList({ companyId, people, departmentId }: { companyId: string; people: readonly Person[]; departmentId: string }) {
  if (people.length === 0) {
    return (
      <p className="structure__empty">
        <FormattedMessage id="departments.structure.empty" defaultMessage="Nobody works here yet." />
      </p>
    );
  }
  const shown = people.slice(0, STRUCTURE_PEOPLE_SHOWN);
  return (
    <>
      <ul className="structure__people">
        {shown.map((person) => (
          <li key={person.id} className={person.active ? 'structure__person' : 'structure__person structure__person--inactive'}>
            <Link href={paths.company.employee(companyId, person.id)}>{person.fullName}</Link>
            {person.position && <span className="structure__position">{person.position}</span>}
          </li>
        ))}
      </ul>
      {people.length > shown.length && (
        <p className="structure__more">
          <Link href={`${paths.company.employees(companyId)}?departmentId=${encodeURIComponent(departmentId)}`}>
            <FormattedMessage
              id="departments.structure.more"
              defaultMessage="and {count, plural, one {# more person} other {# more people}}: open in the employees list"
              values={{ count: people.length - shown.length }}
            />
          </Link>
        </p>
      )}
    </>
  );
}

/**
 * The employee structure: each department (and the people without one) as a collapsible section. A section's
 * people are put in the page only once it has been opened, so a company of thousands opens at once.
 */
export function StructureView({ companyId, overview }: { companyId: string; overview: DepartmentsOverview }) {
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  const onToggle = (id: string) => (isOpen: boolean) => {
    if (isOpen && !opened.has(id)) setOpened(new Set(opened).add(id));
  };
  const sections = [
    ...overview.departments.map((node) => ({
      id: node.department.id,
      title: (
        <span className="structure__title">
          <span className="structure__name">{node.department.name}</span>
          <span className="structure__count">
            <FormattedMessage id="departments.item.people" defaultMessage="{count, plural, =0 {no people} one {# person} other {# people}}" values={{ count: node.people.length }} />
            {node.headName && (
              <>
                <span aria-hidden="true" className="structure__dot" />
                <FormattedMessage id="departments.item.head" defaultMessage="Head: {name}" values={{ name: node.headName }} />
              </>
            )}
          </span>
        </span>
      ),
      people: node.people,
    })),
    ...(overview.unassigned.length > 0
      ? [
          {
            id: NO_DEPARTMENT,
            title: (
              <span className="structure__title">
                <span className="structure__name">
                  <FormattedMessage id="departments.structure.unassigned" defaultMessage="Without a department" />
                </span>
                <span className="structure__count">
                  <FormattedMessage id="departments.item.people" defaultMessage="{count, plural, =0 {no people} one {# person} other {# people}}" values={{ count: overview.unassigned.length }} />
                </span>
              </span>
            ),
            people: overview.unassigned,
          },
        ]
      : []),
  ];

  if (sections.length === 0) {
    return (
      <p className="people-note">
        <FormattedMessage id="departments.structure.nothing" defaultMessage="No departments and no people on this device yet." />
      </p>
    );
  }
  return (
    <div className="structure" data-section="structure">
      {sections.map((section) => (
        <div className="structure__section" key={section.id} data-structure-department={section.id}>
          <Collapse title={section.title} onToggle={onToggle(section.id)}>
            {opened.has(section.id) && <PeopleList companyId={companyId} people={section.people} departmentId={section.id} />}
          </Collapse>
        </div>
      ))}
    </div>
  );
}

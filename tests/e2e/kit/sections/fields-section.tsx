// Showcase of the text field, its masks, the textarea, tabs, collapse and a form validated by a
// superstruct struct. Labels are fixed English test copy; the controls' own texts (Show/Hide, the
// counter, the example tips, validation messages) follow the page language.
import { useState } from 'react';
import { object, refine, string } from 'superstruct';
import { Button } from '../../../../src/ui/button';
import { Collapse } from '../../../../src/ui/collapse';
import { useForm } from '../../../../src/ui/form';
import { Tabs } from '../../../../src/ui/tabs';
import { TextField, type TextFieldProps } from '../../../../src/ui/text-field';
import { Textarea } from '../../../../src/ui/textarea';

const ContactInput = object({
  email: refine(string(), 'email', (value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)),
  phone: refine(string(), 'phone', (value) => value.replace(/\D/g, '').length >= 11),
});

const GRID = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(15rem, 1fr))', columnGap: '1rem' } as const;
const MODEL = { display: 'block', marginTop: '-0.75rem', marginBottom: '0.75rem', fontSize: '0.75rem', color: 'var(--color-muted, #6b7280)' } as const;

/** A text field holding its own value, with the model value printed beside it for the browser test. */
function Field(props: Omit<TextFieldProps, 'value' | 'onChange'> & { initial?: string }) {
  const { initial = '', ...rest } = props;
  const [value, setValue] = useState(initial);
  return (
    <div>
      <TextField {...rest} value={value} onChange={setValue} />
      <output style={MODEL} data-kit-value={rest.name}>
        {value}
      </output>
    </div>
  );
}

function ContactForm() {
  const form = useForm({ struct: ContactInput, initialValues: { email: '', phone: '' } });
  const [sent, setSent] = useState('');
  return (
    <form noValidate onSubmit={form.handleSubmit((value) => setSent(JSON.stringify(value)))}>
      <TextField {...form.textField('email', 'E-mail')} mask="email" autoComplete="email" />
      <TextField {...form.textField('phone', 'Phone')} mask="phone" autoComplete="tel" />
      <Button type="submit">Send</Button>
      <output data-kit-value="contact-form">{sent}</output>
    </form>
  );
}

export default function FieldsSection() {
  const [comment, setComment] = useState('');
  const [tab, setTab] = useState('fields');
  return (
    <section data-kit="fields">
      <h2>Text fields, masks, textarea, tabs, collapse</h2>
      <Tabs
        label="Field groups"
        tabs={[
          { id: 'fields', title: 'Fields' },
          { id: 'masks', title: 'Masks' },
          { id: 'form', title: 'Form' },
        ]}
        value={tab}
        onChange={setTab}
      >
        {tab === 'fields' && (
          <div style={GRID}>
            <Field label="Company" name="company" tip="As registered" required />
            <Field label="Password" name="password" type="password" initial="secret123" />
            <Field label="Invalid field" name="invalid" initial="abc" error="Invalid field is not valid." />
            <Field label="Underlined (styleType 2)" name="underlined" styleType={2} />
            <Field label="Disabled" name="disabled" initial="Read only" disabled />
            <Field label="Employees (int, 1-500)" name="employees" validate="int" min={1} max={500} />
            <Field label="Ratio (float)" name="ratio" validate="float" />
            <Field label="Code (pattern|[A-F0-9])" name="code" validate="pattern|[A-F0-9]" />
            <Textarea label="Comment" name="comment" value={comment} onChange={setComment} maxLength={200} />
          </div>
        )}
        {tab === 'masks' && (
          <div style={GRID}>
            <Field label="Amount" name="amount" mask="number" />
            <Field label="Share" name="share" mask="percent" />
            <Field label="Price, RUB" name="rub" mask={{ currency: 'RUB' }} />
            <Field label="Price, USD" name="usd" mask={{ currency: 'USD' }} />
            <Field label="Price, AUD" name="aud" mask={{ currency: 'AUD' }} styleType={2} />
            <Field label="E-mail" name="email" mask="email" />
            <Field label="Phone" name="phone" mask="phone" />
          </div>
        )}
        {tab === 'form' && <ContactForm />}
      </Tabs>
      <Collapse title="More about these controls">
        <p>Masks come from imask; the model keeps the unmasked value.</p>
      </Collapse>
    </section>
  );
}

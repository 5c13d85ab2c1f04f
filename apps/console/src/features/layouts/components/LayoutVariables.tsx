import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { api, failureMessage } from '../../../lib/api';
import { Labelled } from '../../../components/Labelled';
import { FormAlert, FormNotice } from '../../../components/FormAlert';
import {
  defaultTextOf,
  defaultValueOf,
  layoutPath,
  variablesSchema,
  type Layout,
  type VariablesValues,
} from '../lib/layouts';

/**
 * The variables the saved HTML reads, each with the default an e-mail gets when its trigger's
 * payload lacks it, and whether it is required: a String's default is text, a Boolean's true
 * or false, an Array's a JSON array. Which variables there are follows the HTML when it is saved.
 */
export function LayoutVariables({ layout, onSaved }: { layout: Layout; onSaved: () => void }) {
  const [notice, setNotice] = useState<string | null>(null);
  const form = useForm<VariablesValues>({
    resolver: zodResolver(variablesSchema),
    values: {
      variables: layout.variables.map((v) => ({
        name: v.name,
        type: v.type,
        required: v.required,
        defaultText: defaultTextOf(v),
      })),
    },
  });
  const { fields } = useFieldArray({ control: form.control, name: 'variables' });
  const save = useMutation({
    mutationFn: (values: VariablesValues) =>
      api(layoutPath(layout._id), {
        method: 'PATCH',
        body: {
          variables: values.variables.map((v) => {
            const defaultValue = defaultValueOf(v);
            return {
              name: v.name,
              required: v.required,
              ...(defaultValue !== undefined && { defaultValue }),
            };
          }),
        },
      }),
    onSuccess: () => {
      setNotice('The variables were saved.');
      onSaved();
    },
  });
  const errors = form.formState.errors.variables;

  return (
    <section className="card" aria-labelledby="variables-title">
      <h2 id="variables-title">Variables</h2>
      {fields.length === 0 ? (
        <p className="records-empty">
          The HTML reads no variable. Write {'{{name}}'} in it to read one from the trigger's
          payload.
        </p>
      ) : (
        <form
          className="variables-form"
          noValidate
          onSubmit={form.handleSubmit((values) => {
            setNotice(null);
            save.mutate(values);
          })}
        >
          <p className="muted">
            An e-mail whose trigger leaves a variable out gets its default. Which variables there
            are follows the HTML once it is saved.
          </p>
          <ul className="records-list">
            {fields.map((field, index) => {
              const error = errors?.[index]?.defaultText;
              return (
                <li key={field.id} className="variable-row" data-testid="layout-variable">
                  <span>
                    <code>{field.name}</code> <span className="muted">{field.type}</span>
                  </span>
                  <Labelled
                    label={`Default of ${field.name}`}
                    error={error}
                    hint={field.type === 'Array' ? 'A JSON array, like ["a", "b"]' : undefined}
                  >
                    {(control) =>
                      field.type === 'Boolean' ? (
                        <select {...control} {...form.register(`variables.${index}.defaultText`)}>
                          <option value="">No default</option>
                          <option value="true">true</option>
                          <option value="false">false</option>
                        </select>
                      ) : (
                        <input
                          {...control}
                          autoComplete="off"
                          spellCheck={false}
                          {...form.register(`variables.${index}.defaultText`)}
                        />
                      )
                    }
                  </Labelled>
                  <label className="check">
                    <input type="checkbox" {...form.register(`variables.${index}.required`)} />{' '}
                    Required
                  </label>
                </li>
              );
            })}
          </ul>
          <FormAlert message={failureMessage(save.error)} />
          <FormNotice message={notice} />
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save the variables'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

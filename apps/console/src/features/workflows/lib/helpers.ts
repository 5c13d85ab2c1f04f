/** The template helpers of the wire contract (packages/sino-core/src/templates/helpers.ts). */
export const HELPERS = [
  {
    name: 'equals',
    example: '{{#equals status "paid"}}…{{else}}…{{/equals}}',
    description: 'Shows the first block when both values are equal, else the second.',
  },
  { name: 'titlecase', example: '{{titlecase name}}', description: 'Each word capitalised.' },
  { name: 'uppercase', example: '{{uppercase code}}', description: 'All in capitals.' },
  { name: 'lowercase', example: '{{lowercase email}}', description: 'All in small letters.' },
  {
    name: 'pluralize',
    example: '{{pluralize count "item" "items"}}',
    description: 'The singular only when the number is exactly 1.',
  },
  {
    name: 'dateFormat',
    example: '{{dateFormat date "dd/MM/yyyy HH:mm"}}',
    description: 'A date in date-fns tokens; a value that is not a date is left as it is.',
  },
  {
    name: 'unique',
    example: '{{#each (unique items "name")}}…{{/each}}',
    description: 'The distinct values of a property of a list.',
  },
  {
    name: 'groupBy',
    example: '{{#each (groupBy items "type")}}{{key}}: {{items.length}}{{/each}}',
    description: 'A list grouped by a property: each group’s key and items.',
  },
  {
    name: 'sortBy',
    example: '{{#each (sortBy items "price")}}…{{/each}}',
    description: 'A sorted copy of a list, by a property.',
  },
] as const;

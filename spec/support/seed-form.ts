/** The seed's example form (Phantom.Elicit), exactly as the wire must carry it. */
export const SEED_REQUESTED_SCHEMA = Object.freeze({
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name' },
    email: { type: 'string', title: 'Email', format: 'email' },
    role: { type: 'string', title: 'Role', oneOf: [{ const: 'dev', title: 'Developer' }, { const: 'pm', title: 'Product Manager' }] },
  },
  required: ['name', 'email', 'role'],
});

// What a component inserted from the palette starts with: enough to lint clean and be seen.
export const TEMPLATES = {
  vstack: { properties: { spacing: 'm' }, children: [] },
  hstack: { properties: { spacing: 'm' }, children: [] },
  text: { properties: { text: 'Text' } },
  image: { properties: { url: 'https://example.com/image.png', alt: 'Describe the image' } },
  button: { properties: { title: 'Continue', action: { type: 'submit' } } },
  textField: { properties: { fieldId: '', label: 'Label' } },
  picker: { properties: { fieldId: '', label: 'Label', options: ['First', 'Second'] } },
  quickReplies: { properties: { fieldId: '', options: ['Yes', 'No'] } },
  datePicker: { properties: { fieldId: '', label: 'Date' } },
  toggle: { properties: { fieldId: '', label: 'Label' } },
  card: { properties: { title: 'Card' }, children: [] },
  carousel: { properties: {}, children: [] },
  grid: { properties: {}, children: [] },
  spacer: { properties: {} },
  divider: { properties: {} },
};

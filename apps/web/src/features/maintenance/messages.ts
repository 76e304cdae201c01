export const MAINTENANCE_MESSAGES = {
  title: 'System Maintenance',
  turnOff: 'Turn Maintenance Mode Off',
  turnOn: 'Turn Maintenance Mode On',
} as const;

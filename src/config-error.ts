// Bad configuration or command line: main.ts prints it as one line and exits with code 2.
export class ConfigError extends Error {}

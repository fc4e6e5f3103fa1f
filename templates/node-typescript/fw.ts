import { defineConfig } from 'fw-deploy';

// The same settings as an fw.yml, checked by TypeScript as you type.
export default defineConfig({
  service: '__SERVICE_NAME__',
  provider: {
    name: 'aws',
    runtime: 'nodejs20.x',
    region: 'us-east-1',
  },
  package: {
    patterns: ['!test/**', '!.build/**', '!README.md', '!tsconfig.json'],
  },
  functions: {
    hello: {
      // fw compiles src/handler.ts when it packages the function.
      handler: 'src/handler.hello',
      events: [{ httpApi: 'GET /hello/{name}' }],
    },
  },
});

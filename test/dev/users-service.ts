/** A service with one function, `users`, answering `GET /users/{id}` on an HTTP API. */
export const usersService = (service: string) => `service: ${service}
provider:
  name: aws
  runtime: nodejs20.x
functions:
  users:
    handler: handler.users
    events:
      - httpApi: 'GET /users/{id}'
`;

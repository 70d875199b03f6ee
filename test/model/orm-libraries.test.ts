import { describe, expect, it } from 'vitest';

import { isLibraryFile } from '../../src/model/orm/libraries.js';

describe('isLibraryFile', () => {
  it("counts each library's own package files, and a Prisma client generated into the project", () => {
    expect(isLibraryFile('/app/node_modules/@prisma/client/index.d.ts')).toBe(true);
    expect(isLibraryFile('/app/generated/prisma/client.ts')).toBe(true);
    expect(isLibraryFile('/app/node_modules/@sequelize/core/lib/model.d.ts')).toBe(true);
    expect(isLibraryFile('/app/node_modules/sequelize/types/model.d.ts')).toBe(true);
  });

  it("leaves the project's own modules alone", () => {
    expect(isLibraryFile('/app/src/prisma/client.ts')).toBe(false);
    expect(isLibraryFile('/app/src/generated/graphql.ts')).toBe(false);
    expect(isLibraryFile('/app/src/sequelize-models/user.ts')).toBe(false);
  });
});

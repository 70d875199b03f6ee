import { describe, expect, it } from 'vitest';

import { analyze } from '../../src/analysis/analyze.js';
import { writeRepo } from '../cli/helpers.js';

describe('a service method that forwards its options to a Sequelize write', () => {
  const service =
    "import { type CreateOptions } from 'sequelize';\nexport class BookmarkService {\n  constructor(private readonly bookmarkModel: any) {}\n  async create(dto: object, opts?: CreateOptions) {\n    return await this.bookmarkModel.create(dto, opts);\n  }\n  async find(id: string, opts?: object) {\n    return await this.bookmarkModel.findOne({ ...opts, where: { id } });\n  }\n}\n";
  const controller =
    "import { Sequelize } from 'sequelize';\nimport { BookmarkService } from './bookmark.service.js';\nexport class BookmarkController {\n  constructor(private readonly sequelize: Sequelize, private readonly bookmarkService: BookmarkService) {}\n  async bookmark(id: string) {\n    const transaction = await this.sequelize.transaction();\n    try {\n      await this.bookmarkService.find(id);\n      await this.bookmarkService.create({ id });\n      await this.bookmarkService.create({ id }, { transaction });\n      await transaction.commit();\n    } catch (error) {\n      await transaction.rollback();\n      throw error;\n    }\n  }\n}\n";
  it('is reported where another module calls it inside a transaction without the transaction', () => {
    const root = writeRepo({ 'src/bookmark.service.ts': service, 'src/bookmark.controller.ts': controller });
    const result = analyze({ root, paths: [], ignore: [], types: false, includeSuppressed: true });
    expect(result.settings['src/bookmark.controller.ts']?.summaries?.['./bookmark.service.js']).toEqual({
      'BookmarkService.create': { forwardsOptions: [{ index: 1, parameter: 'options' }] },
    });
    expect(
      result.findings
        .filter((finding) => finding.ruleId === 'idempotency/no-pool-query-in-transaction')
        .map((finding) => `${finding.file}:${finding.line}`),
    ).toEqual(['src/bookmark.controller.ts:9']);
  });
});

import rule from '../../rules/no-pool-query-in-transaction.js';
import { syntaxRuleTester, typedRuleTester } from '../rule-tester.js';

const header = `
import { Sequelize } from 'sequelize';
const sequelize = new Sequelize('postgres://');
`;

syntaxRuleTester().run('no-pool-query-in-transaction (Sequelize: options in the one argument that reads them)', rule, {
  valid: [
    // The aggregate reads its options from its second argument, and the transaction is there.
    `${header}
export async function deposit(Job: any, profile: any) {
  await sequelize.transaction(async (t) => {
    const total = await Job.sum('price', { where: { paid: null }, transaction: t });
    await profile.update({ balance: total }, { transaction: t });
  });
}
`,
    // Options that carry the transaction through a spread or a variable.
    `${header}
export async function deposit(Job: any, profile: any) {
  await sequelize.transaction(async (t) => {
    const base = { transaction: t };
    const total = await Job.sum('price', { ...base, where: { paid: null } });
    const count = await Job.count(base);
    await profile.update({ balance: total + count }, base);
  });
}
`,
    // A read without the transaction and without a misplaced one: reads are not reported.
    `${header}
export async function deposit(Job: any, profile: any) {
  await sequelize.transaction(async (t) => {
    const total = await Job.sum('price', { where: { paid: null } });
    await profile.update({ balance: total }, { transaction: t });
  });
}
`,
    // Association accessors that pass the transaction, through the literal or a variable.
    `${header}
export async function grant(Role: any, id: string, ids: string[]) {
  const transaction = await sequelize.transaction();
  try {
    const role = await Role.findByPk(id);
    await role.addPermission(id, { transaction });
    const options = { transaction };
    await role.setPermissions(ids, options);
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}
`,
    // add*/set* on things that are not model instances: a response, a form, a parameter.
    `${header}
export async function grant(res: any, form: any, Role: any, id: string) {
  const transaction = await sequelize.transaction();
  try {
    const role = await Role.findByPk(id, { transaction });
    res.setHeader('x-role', role.id);
    form.addField('role');
    const headers = new Headers();
    headers.set('x', '1');
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}
`,
    // After the commit, an accessor without the transaction is on purpose.
    `${header}
export async function grant(Role: any, id: string) {
  const transaction = await sequelize.transaction();
  const role = await Role.findByPk(id, { transaction });
  await role.update({ granted: true }, { transaction });
  await transaction.commit();
  await role.addPermission(id);
}
`,
    // A project method that forwards its options, called with the transaction (literal, spread, variable).
    `${header}
class BookmarkService {
  constructor(private readonly bookmarkModel: any) {}
  async create(dto: object, opts?: object) {
    return await this.bookmarkModel.create(dto, opts);
  }
  async bookmark(id: string, base: object) {
    const transaction = await sequelize.transaction();
    try {
      const options = { transaction };
      await Promise.all([
        this.create({ id }, { transaction }),
        this.create({ id }, { ...base, transaction }),
        this.create({ id }, options),
      ]);
      await transaction.commit();
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }
}
`,
    // A method whose options go to a read, not a write: leaving them out reads outside, reported nowhere.
    `${header}
class BookmarkService {
  constructor(private readonly bookmarkModel: any) {}
  async find(id: string, opts?: object) {
    return await this.bookmarkModel.findOne({ ...opts, where: { id } });
  }
  async bookmark(id: string) {
    await sequelize.transaction(async (t) => {
      const found = await this.find(id);
      await this.bookmarkModel.update({ seen: found !== null }, { where: { id }, transaction: t });
    });
  }
}
`,
    // CLS on: a managed transaction reaches the forwarded write by itself.
    {
      code: `${header}
export async function createBookmark(Bookmark: any, dto: object, opts?: object) {
  return Bookmark.create(dto, opts);
}
export async function bookmark(dto: object) {
  await sequelize.transaction(async () => {
    await createBookmark(dto);
  });
}
`,
      settings: { idempotency: { implicitTransactions: ['sequelize'] } },
    },
  ],
  invalid: [
    {
      // Model.sum(field, options): a third argument is never read.
      code: `${header}
export async function deposit(Job: any, profile: any) {
  await sequelize.transaction(async (t) => {
    const total = await Job.sum('price', { where: { paid: null } }, { transaction: t });
    await profile.update({ balance: total }, { transaction: t });
  });
}
`,
      errors: [{ messageId: 'ormOptionIgnored', line: 7, column: 25, suggestions: [] }],
    },
    {
      // Model.update(values, options): the transaction in a third argument is ignored too.
      code: `${header}
export async function close(Job: any, id: string) {
  await sequelize.transaction(async (t) => {
    await Job.update({ closed: true }, { where: { id } }, { transaction: t });
  });
}
`,
      errors: [{ messageId: 'ormOptionIgnored', line: 7, column: 11, suggestions: [] }],
    },
    {
      // An association accessor on a found instance, not awaited, without the transaction.
      code: `${header}
export async function grant(Role: any, id: string) {
  const transaction = await sequelize.transaction();
  try {
    const role = await Role.findOne({ where: { id } });
    if (id) role.addPermission(id);
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 9,
          column: 13,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `${header}
export async function grant(Role: any, id: string) {
  const transaction = await sequelize.transaction();
  try {
    const role = await Role.findOne({ where: { id } });
    if (id) role.addPermission(id, { transaction });
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      // A project method forwarding its options to Model.create, called without them while a sibling gets them.
      code: `${header}
class BookmarkService {
  constructor(private readonly bookmarkModel: any, private readonly postModel: any) {}
  async create(dto: object, opts?: object) {
    return await this.bookmarkModel.create(dto, opts);
  }
  async bookmark(id: string) {
    const transaction = await sequelize.transaction();
    try {
      await Promise.all([
        this.create({ id }),
        this.postModel.increment('bookmarks', { where: { id }, transaction }),
      ]);
      await transaction.commit();
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 14,
          column: 9,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `${header}
class BookmarkService {
  constructor(private readonly bookmarkModel: any, private readonly postModel: any) {}
  async create(dto: object, opts?: object) {
    return await this.bookmarkModel.create(dto, opts);
  }
  async bookmark(id: string) {
    const transaction = await sequelize.transaction();
    try {
      await Promise.all([
        this.create({ id }, { transaction }),
        this.postModel.increment('bookmarks', { where: { id }, transaction }),
      ]);
      await transaction.commit();
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }
}
`,
            },
          ],
        },
      ],
    },
    {
      // A function spreading its options into destroy, called in a .map inside Promise.all.
      code: `${header}
async function removeRead(ChatRead: any, id: string, opts?: object) {
  return ChatRead.destroy({ ...opts, where: { id } });
}
export async function markRead(ChatRead: any, ids: string[]) {
  await sequelize.transaction(async (t) => {
    await Promise.all(ids.map(async (id) => await removeRead(ChatRead, id)));
  });
}
`,
      errors: [
        {
          messageId: 'ormOption',
          line: 10,
          column: 51,
          suggestions: [
            {
              messageId: 'passTransaction',
              output: `${header}
async function removeRead(ChatRead: any, id: string, opts?: object) {
  return ChatRead.destroy({ ...opts, where: { id } });
}
export async function markRead(ChatRead: any, ids: string[]) {
  await sequelize.transaction(async (t) => {
    await Promise.all(ids.map(async (id) => await removeRead(ChatRead, id, { transaction: t })));
  });
}
`,
            },
          ],
        },
      ],
    },
  ],
});

typedRuleTester().run('no-pool-query-in-transaction (Sequelize: options, typed)', rule, {
  valid: [
    `
import { Sequelize, Model, type InferAttributes, type InferCreationAttributes } from 'sequelize';
const sequelize = new Sequelize('postgres://');
class Job extends Model<InferAttributes<Job>, InferCreationAttributes<Job>> {
  declare price: number;
}
export async function total(): Promise<number> {
  return sequelize.transaction(async (t) => Job.sum('price', { transaction: t }));
}
`,
  ],
  invalid: [
    {
      code: `
import { Sequelize, Model, type InferAttributes, type InferCreationAttributes } from 'sequelize';
const sequelize = new Sequelize('postgres://');
class Job extends Model<InferAttributes<Job>, InferCreationAttributes<Job>> {
  declare price: number;
}
export async function total(): Promise<number> {
  return sequelize.transaction(async (t) => {
    // @ts-expect-error sum takes (field, options): the declarations have no third argument.
    const sum = await Job.sum('price', {}, { transaction: t });
    await Job.update({ price: sum }, { where: {}, transaction: t });
    return sum;
  });
}
`,
      errors: [{ messageId: 'ormOptionIgnored', line: 10, column: 23, suggestions: [] }],
    },
  ],
});

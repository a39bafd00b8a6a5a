import { statSync } from 'fs';
import { App, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Fact, FactName } from 'aws-cdk-lib/region-info';
import { InstanceType } from '../../src/core/instance-type';
import { JumpStartModel } from '../../src/jumpstart';
import {
  CATALOG_PATH,
  catalogAccounts,
  catalogLoadCount,
  findModel,
  findVersion,
  loadCatalog,
  modelIds,
  resolveImage,
} from '../../src/jumpstart/catalog';
import { closeMatches } from '../../src/jumpstart/close-matches';
import { editDistance } from '../../src/private/contract.generated';
import { dlcAccountFor } from '../../src/private/dlc-accounts';
import { instanceSpecs } from '../../src/private/instance-table';

describe('catalog integrity', () => {
  test('is at most 1 MB on disk', () => {
    expect(statSync(CATALOG_PATH).size).toBeLessThanOrEqual(1024 * 1024);
  });

  test('every model has a deployable version, and its newest resolves in us-east-1 on its default instance type', () => {
    // GIVEN every model id in the catalog
    const ids = modelIds();
    expect(ids.length).toBeGreaterThan(300);
    const app = new App();
    const stack = new Stack(app, 'Stack', { env: { account: '123456789012', region: 'us-east-1' } });
    const role = iam.Role.fromRoleArn(stack, 'Role', 'arn:aws:iam::123456789012:role/model', { mutable: false });
    const problems: string[] = [];
    for (const id of ids) {
      // WHEN the newest version is bound with its EULA accepted, on its default instance type
      try {
        const model = JumpStartModel.of(id, { acceptEula: true });
        const config = model.bind(stack, { role, instanceType: model.defaultInstanceType });
        // THEN it yields an image in us-east-1 and an artifact in a JumpStart bucket
        if (!/^\d{12}\.dkr\.ecr\.us-east-1\.amazonaws\.com\/[a-z0-9-]+:\S+$/.test(config.imageUri!)) problems.push(`${id}: image ${config.imageUri}`);
        if (!/^s3:\/\/jumpstart-(private-)?cache-prod-us-east-1\/\S+(\/|\.tar\.gz)$/.test(config.modelData!.s3Uri)) problems.push(`${id}: data ${config.modelData!.s3Uri}`);
        if (!model.supportedInstanceTypes.includes(model.defaultInstanceType.name)) problems.push(`${id}: default not supported`);
      } catch (e) {
        problems.push(`${id}: ${(e as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('every deployable version resolves an image for its default instance type in us-east-1', () => {
    const failures: string[] = [];
    for (const id of modelIds()) {
      for (const version of findModel(id)!.versions) {
        const v = findVersion(id, version)!;
        if ('error' in resolveImage(v, v.defaultInstanceType, 'us-east-1')) failures.push(`${id}@${version}`);
      }
    }
    expect(failures).toEqual([]);
  });

  test('every supported instance type is in the instance table', () => {
    const unknown = new Set<string>();
    for (const id of modelIds()) {
      for (const t of findVersion(id)!.supportedInstanceTypes) if (!instanceSpecs(t)) unknown.add(t);
    }
    expect([...unknown]).toEqual([]);
  });

  test('keeps the versions it cannot deploy, by reason', () => {
    const llama = findModel('meta-textgeneration-llama-3-8b-instruct')!;
    expect(llama.versions[0]).toBe('2.2.0');
    expect(llama.notDeployable.noImage).toContain('2.25.0');
    expect(findModel('meta-textgeneration-llama-2-13b')!.notDeployable.marketplace).toContain('2.1.8');
  });
});

describe('DLC registry accounts', () => {
  test('agree with aws-cdk-lib region facts (DLC_REPOSITORY_ACCOUNT) wherever a fact exists', () => {
    const accounts = catalogAccounts();
    expect(Object.keys(accounts).length).toBeGreaterThanOrEqual(40);
    let compared = 0;
    const mismatches: string[] = [];
    for (const [region, account] of Object.entries(accounts)) {
      const fact = Fact.find(region, FactName.DLC_REPOSITORY_ACCOUNT);
      if (fact === undefined) continue;
      compared++;
      if (fact !== account) mismatches.push(`${region}: catalog ${account}, aws-cdk-lib ${fact}`);
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(20);
  });

  test('agree with the core DLC table (ContainerImage.fromDlc) wherever it has the region', () => {
    const mismatches = Object.entries(catalogAccounts())
      .filter(([region, account]) => dlcAccountFor(region) !== undefined && dlcAccountFor(region) !== account)
      .map(([region, account]) => `${region}: catalog ${account}, core ${dlcAccountFor(region)}`);
    expect(mismatches).toEqual([]);
  });
});

describe('lazy loading', () => {
  test('the catalog is read and inflated once, on the first lookup, not per call', () => {
    jest.isolateModules(() => {
      // GIVEN a fresh module registry (nothing loaded yet) and a spy on gunzip
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const zlib = require('zlib');
      const gunzip = jest.spyOn(zlib, 'gunzipSync');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const catalog = require('../../src/jumpstart/catalog');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { JumpStartModel: FreshModel } = require('../../src/jumpstart');
      expect(catalog.catalogLoadCount()).toBe(0);
      expect(gunzip).not.toHaveBeenCalled();

      // WHEN many lookups and resolutions run
      for (let i = 0; i < 20; i++) {
        FreshModel.of('meta-textgeneration-llama-3-8b-instruct', { version: '2.2.0' });
        catalog.findVersion('huggingface-llm-falcon-40b-bf16');
      }

      // THEN the file was inflated exactly once
      expect(catalog.catalogLoadCount()).toBe(1);
      expect(gunzip).toHaveBeenCalledTimes(1);
      gunzip.mockRestore();
    });
  });

  test('the loaded catalog is the same object on every call', () => {
    expect(loadCatalog()).toBe(loadCatalog());
    expect(catalogLoadCount()).toBe(1);
  });
});

describe('close matches', () => {
  test('edit distance and substring suggestions, closest first', () => {
    // The edit distance is the runtime contract's (packages/runtime/src/contract/edit-distance.ts), through the mirror.
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('abc', 'abcdefgh', 2)).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(closeMatches('mistral-7b', ['huggingface-llm-mistral-7b', 'huggingface-llm-falcon-7b', 'x'])).toEqual(['huggingface-llm-mistral-7b']);
    expect(closeMatches('zzzzzzzz', ['huggingface-llm-mistral-7b'])).toEqual([]);
  });
});

describe('precision and instance types in the catalog', () => {
  test('a GPTQ model defaults to INT4 and sizes its instance accordingly', () => {
    const gptq = JumpStartModel.of('huggingface-llm-mixtral-8x7b-instruct-gptq');
    expect(gptq.precision).toBe('int4');
    expect(gptq.fitsInstanceType(InstanceType.of('ml.g5.12xlarge'))).toBe(true);
  });
});

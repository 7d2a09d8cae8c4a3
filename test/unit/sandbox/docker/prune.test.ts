// Which tags `sandbox prune` may remove: labels are inherited by images built FROM benchrig's, so
// only the exact tag benchrig built counts (by its label, or by benchrig's naming for older images).
import { describe, expect, it } from 'vitest';
import { ENV_IMAGE_LABEL, ENV_LABEL, tagsBenchrigBuilt } from '../../../../src/sandbox/docker/prune.ts';

const BUILT = 'benchrig-env/shell:0123456789abcdef';

describe('tagsBenchrigBuilt', () => {
  it("is the tag benchrig built, not a user's extra tag on the same image", () => {
    const img = { RepoTags: [BUILT, 'mine/shell:keep'], Labels: { [ENV_LABEL]: 'shell', [ENV_IMAGE_LABEL]: BUILT } };
    expect(tagsBenchrigBuilt(img)).toEqual([BUILT]);
  });

  it('is nothing for an image built FROM it, which inherits its labels', () => {
    const child = { RepoTags: ['mine/child:1'], Labels: { [ENV_LABEL]: 'shell', [ENV_IMAGE_LABEL]: BUILT } };
    expect(tagsBenchrigBuilt(child)).toEqual([]);
    // built FROM an image of an older benchrig (no image label): its tag is not benchrig's name either
    expect(tagsBenchrigBuilt({ RepoTags: ['mine/child:1'], Labels: { [ENV_LABEL]: 'shell' } })).toEqual([]);
  });

  it("finds an older benchrig's images by its naming, and nothing without the env label", () => {
    expect(tagsBenchrigBuilt({ RepoTags: [BUILT, 'mine/x:1'], Labels: { [ENV_LABEL]: 'shell' } })).toEqual([BUILT]);
    expect(tagsBenchrigBuilt({ RepoTags: [BUILT], Labels: { benchrig: '1' } })).toEqual([]);
    expect(
      tagsBenchrigBuilt({ RepoTags: ['<none>:<none>'], Labels: { [ENV_LABEL]: 'shell', [ENV_IMAGE_LABEL]: BUILT } }),
    ).toEqual([]);
  });
});

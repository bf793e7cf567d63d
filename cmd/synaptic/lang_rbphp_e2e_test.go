package main_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// rbphpRepo is a small Ruby + PHP project: require_relative chains, an
// @ivar typed by X.new, self and super calls, RSpec and PHPUnit tests, a
// trait, promoted constructor properties, PHP mixed with HTML and an ERB
// template, and a Gemfile.
var rbphpRepo = map[string]string{
	"Gemfile": "source \"https://rubygems.org\"\ngem \"rack\"\n", // Ruby by its name (a glob)
	"app/views/show.html.erb": `<h1><%= @invoice.total %></h1>
`,
	"lib/shop.rb": `require_relative "shop/invoice"

module Shop
  # Builds invoices.
  def self.invoice(repo)
    Invoice.new(repo)
  end
end
`,
	"lib/shop/invoice.rb": `require_relative "repo"

module Shop
  class Base
    def save; end
  end

  class Invoice < Base
    def initialize(store)
      @repo = Repo.new(store)
    end

    def pay
      @repo.find(1)
      total
      super
    end

    def save
      super
    end

    def total; 0; end
  end
end
`,
	"lib/shop/repo.rb": `module Shop
  class Repo
    def initialize(store); end
    def find(id); end
  end
end
`,
	"spec/invoice_spec.rb": `require_relative "../lib/shop"

describe Shop::Invoice do
  it "pays" do
    inv = Shop::Invoice.new(nil)
    inv.pay
  end
end
`,
	"src/Models/Invoice.php": `<?php
namespace App\Models;

use App\Support\Loggable;

require_once __DIR__ . '/Repo.php';

class Invoice extends Model
{
    use Loggable;

    public function __construct(private Repo $repo) {}

    public function pay(): bool
    {
        $this->repo->find(1);
        $this->log('paid');
        return $this->total() > 0;
    }

    public function total(): int { return 0; }
}
`,
	"src/Models/Repo.php": `<?php
namespace App\Models;

class Repo
{
    public function find(int $id) {}
}

abstract class Model
{
    public static function create(): static { return new static(); }
}
`,
	"src/Support/Loggable.php": `<?php
namespace App\Support;

trait Loggable
{
    public function log(string $m): void {}
}
`,
	"tests/InvoiceTest.php": `<?php
namespace Tests;

use App\Models\Invoice;
use App\Models\Repo;
use PHPUnit\Framework\TestCase;

final class InvoiceTest extends TestCase
{
    public function testPay(): void
    {
        $invoice = new Invoice(new Repo());
        $this->assertTrue($invoice->pay());
    }
}
`,
	"views/page.php": `<html><body>
<?php foreach (\App\Models\Invoice::all() as $inv): ?>
  <p><?= render($inv) ?></p>
<?php endforeach; ?>
<?php function render($inv) { return $inv->total(); } ?>
</body></html>
`,
}

// TestExtractRubyPHP runs the built binary over rbphpRepo: the built-in
// ruby and php plugins are listed and load, and calls, imports and
// relations resolve across files.
func TestExtractRubyPHP(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, rbphpRepo)
	plugins := run(t, root, false, "plugins")
	for _, want := range []string{"ruby(.rb,", ",Gemfile,", "erb(.erb)", "php(.php,.phtml,.inc)"} {
		if !strings.Contains(plugins, want) {
			t.Errorf("synaptic plugins lacks %q:\n%s", want, plugins)
		}
	}
	out := run(t, root, false, "extract", ".")
	for _, want := range []string{"11 files", "php 5", "ruby 5", "erb 1", "ERB template: only Ruby inside"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	g := parseGraph(t, filepath.Join(root, "synaptic-out", "graph.json"))
	for _, e := range [][3]string{
		{"lib_shop_rb", "imports_from", "lib_shop_invoice_rb"},                                       // require_relative
		{"spec_invoice_spec_rb", "imports_from", "lib_shop_rb"},                                      // require_relative "../lib/shop"
		{"lib_shop_invoice_invoice", "inherits", "lib_shop_invoice_base"},                            // class Invoice < Base
		{"lib_shop_invoice_invoice_pay", "calls", "lib_shop_repo_repo_find"},                         // @repo = Repo.new; @repo.find
		{"lib_shop_invoice_invoice_pay", "calls", "lib_shop_invoice_invoice_total"},                  // receiverless: self
		{"lib_shop_invoice_invoice_save", "calls", "lib_shop_invoice_base_save"},                     // super
		{"spec_invoice_spec_describe_shop_invoice_it_pays", "calls", "lib_shop_invoice_invoice_pay"}, // local inv = X.new
		{"src_models_invoice_php", "imports_from", "src_models_repo_php"},                            // require_once __DIR__ . '/Repo.php'
		{"src_models_invoice_invoice", "inherits", "src_models_repo_model"},                          // same namespace
		{"src_models_invoice_invoice", "embeds", "src_support_loggable_loggable"},                    // trait use
		{"src_models_invoice_invoice_pay", "calls", "src_models_repo_repo_find"},                     // promoted private Repo $repo
		{"src_models_invoice_invoice_pay", "calls", "src_support_loggable_loggable_log"},             // trait method through $this
		{"tests_invoicetest_invoicetest_testpay", "calls", "src_models_invoice_invoice_pay"},         // $invoice = new Invoice
		{"views_page_php", "calls", "views_page_render"},                                             // PHP inside HTML
	} {
		if !hasEdge(g, e[0], e[1], e[2]) {
			t.Errorf("missing edge %s -%s-> %s", e[0], e[1], e[2])
		}
	}
}
